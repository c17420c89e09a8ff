"""The notifications in the admin: what was said to whom, and above all what could not be sent — filter the
deliveries on `failed` to see why; "send again" queues chosen failed e-mails once more (notifications/delivery.py).
Everything is read-only: rows are written by the one writer and the outbox's workers."""

from urllib.parse import urlsplit

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .delivery import deliveries_resend
from .models import Delivery, Notification, NotificationSettings, PushSubscription


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(ReadOnly):
    list_display = ["created_at", "user", "kind", "text", "read_at"]
    list_filter = ["kind"]
    list_select_related = ["user"]
    search_fields = ["user__username", "text"]
    readonly_fields = [f.name for f in Notification._meta.fields]
    raw_id_fields = ["user", "league", "match", "team"]


@admin.register(Delivery)
class DeliveryAdmin(ReadOnly):
    """The outbox: each row's channel, state and, when it failed, why."""

    list_display = ["created_at", "recipient", "kind", "channel", "state", "sent_at", "error"]
    list_filter = ["state", "channel"]
    list_select_related = ["notification__user"]
    search_fields = ["notification__user__username", "notification__user__email"]
    readonly_fields = [f.name for f in Delivery._meta.fields]
    actions = ["send_again"]

    @admin.display(description=_("recipient"), ordering="notification__user__username")
    def recipient(self, row: Delivery):
        return row.notification.user

    @admin.display(description=_("kind"))
    def kind(self, row: Delivery) -> str:
        return row.notification.kind

    @admin.action(description=_("Send the chosen failed e-mails again"), permissions=["view"])
    def send_again(self, request, queryset):
        count = deliveries_resend(delivery_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext("%(count)d failed e-mail queued again.", "%(count)d failed e-mails queued again.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(ReadOnly):
    list_display = ["user", "digest", "updated_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    readonly_fields = [f.name for f in NotificationSettings._meta.fields]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnly):
    """A user's browsers that receive pushes; deleting one here stops pushes to it (the browser may subscribe
    again)."""

    list_display = ["created_at", "user", "endpoint_host"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    fields = ["user", "created_at", "endpoint_host"]
    readonly_fields = fields

    @admin.display(description=_("push service"))
    def endpoint_host(self, row: PushSubscription) -> str:
        return urlsplit(row.endpoint).netloc
