"""The admin site's settings: its log-in goes through the same log-in guard as the API and the /login/ page."""

from django.contrib import admin

from dugout.web.forms import GuardedAdminAuthenticationForm

admin.site.login_form = GuardedAdminAuthenticationForm
