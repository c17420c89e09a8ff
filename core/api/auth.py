"""Registration, tokens, log-out and password reset (api-v1 "Auth", its v1.1 additions and v1.2 "Accounts").

Tokens are django-rest-knox's: a new one at every log-in, ending after `TOKEN_TTL` (league/tokens.py). Failed
log-ins go through the log-in guard (league/logins.py): a waiting attempt is answered 429 with Retry-After before
its password is checked, saying how to get back in now (a password reset, with its page's address). Sign-ups
are throttled per client address (league/signups.py); a password reset (league/password_reset.py) answers the
same whether or not an account has the address.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, password_validation, user_logged_in
from django.core.exceptions import ValidationError as DjangoValidationError
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.logins import Lockout, login_attempt_begin, login_attempt_succeeded, login_client_address
from league.password_reset import ResetRefused, password_reset_complete, password_reset_request
from league.signups import SignupWait, signup_abandon, signup_begin
from league.tokens import TokenAuthentication, token_issue, token_revoke, token_revoke_all


class DugoutTokenScheme(KnoxTokenScheme):
    """The schema's `Authorization: Token <token>` scheme for our knox subclass (spectacular matches exact classes)."""

    target_class = "league.tokens.TokenAuthentication"
    name = "tokenAuth"


TOKEN_OUT = inline_serializer(
    "TokenOut",
    {"token": serializers.CharField(), "expiry": serializers.DateTimeField(allow_null=True)},
)


def lockout_response(lockout: Lockout, request) -> Response:
    """429 in words: when to come back (also in the Retry-After header, seconds), and how to get back in now, a
    password reset, with the page's address (also as `password_reset`)."""
    reset = request.build_absolute_uri(reverse("password_reset"))
    detail = f"{lockout.message} {gettext('Reset it at %(url)s.') % {'url': reset}}"
    return Response(
        {"detail": detail, "password_reset": reset},
        status=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(lockout.retry_after())},
    )


def signup_wait_response(wait: SignupWait) -> Response:
    """429 in words, and when to come back in the Retry-After header (seconds)."""
    return Response(
        {"detail": wait.message},
        status=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(wait.retry_after())},
    )


class RegisterSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, max_length=128, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.")
        return value

    def validate(self, attrs: dict) -> dict:
        user = get_user_model()(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class RegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=RegisterSerializer,
        responses={
            201: inline_serializer(
                "Registered",
                {
                    "id": serializers.IntegerField(),
                    "username": serializers.CharField(),
                    "token": serializers.CharField(),
                },
            ),
            400: OpenApiResponse(description="A field refused, e.g. a password under 12 characters."),
            403: OpenApiResponse(description="Registration is closed."),
            429: OpenApiResponse(
                description="Too many accounts created from this address in the last hour: Retry-After says when."
            ),
        },
    )
    def post(self, request):
        if not settings.OPEN_REGISTRATION:
            raise PermissionDenied("Registration is closed on this Dugout.")
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        attempt = signup_begin(address=login_client_address(request))
        if isinstance(attempt, SignupWait):
            return signup_wait_response(attempt)
        try:
            user = get_user_model().objects.create_user(data["username"], data.get("email", ""), data["password"])
        except BaseException:
            signup_abandon(attempt=attempt)
            raise
        _, token = token_issue(user=user)
        return Response({"id": user.pk, "username": user.username, "token": token}, status=status.HTTP_201_CREATED)


class TokenSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=TokenSerializer,
        responses={
            200: OpenApiResponse(TOKEN_OUT, description="A new token at every log-in, valid until `expiry`."),
            400: OpenApiResponse(description="Unknown username or wrong password, or a field missing."),
            429: OpenApiResponse(
                description="Too many failed log-ins for this account: the Retry-After header says when; "
                "`password_reset` is the page that gets the owner back in now."
            ),
        },
    )
    def post(self, request):
        serializer = TokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        credentials = serializer.validated_data
        attempt = login_attempt_begin(username=credentials["username"], address=login_client_address(request))
        if isinstance(attempt, Lockout):
            return lockout_response(attempt, request)
        user = authenticate(request, **credentials)
        if user is None:
            return Response({"detail": "Unknown username or wrong password."}, status=status.HTTP_400_BAD_REQUEST)
        login_attempt_succeeded(attempt=attempt)
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        instance, token = token_issue(user=user)
        return Response({"token": token, "expiry": serializers.DateTimeField().to_representation(instance.expiry)})


class _TokenOwnerView(APIView):
    """Calls made with the token itself (the browser session does not name a token)."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]


class LogoutView(_TokenOwnerView):
    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="The token is ended: it no longer authenticates."),
            401: OpenApiResponse(description="No token, or a token that is unknown, ended or expired."),
        },
    )
    def post(self, request):
        token_revoke(user=request.user, digest=request.auth.digest)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(_TokenOwnerView):
    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="Every token of the user is ended, this one included."),
            401: OpenApiResponse(description="No token, or a token that is unknown, ended or expired."),
        },
    )
    def post(self, request):
        token_revoke_all(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=254)


class PasswordResetView(APIView):
    """`POST /api/v1/auth/password-reset/`: the same 202 whether or not an account has the address."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=PasswordResetSerializer,
        responses={
            202: OpenApiResponse(
                inline_serializer("PasswordResetAsked", {"detail": serializers.CharField()}),
                description="Always, whether or not an account has the address: each account with it is mailed a "
                "link valid for one hour (at most 3 mails an hour to one address).",
            ),
        },
    )
    def post(self, request):
        serializer = PasswordResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        password_reset_request(email=serializer.validated_data["email"])
        detail = gettext("If an account has this address, a link to set a new password is on its way to it.")
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    new_password = serializers.CharField(write_only=True, max_length=128, style={"input_type": "password"})


class PasswordResetConfirmView(APIView):
    """`POST /api/v1/auth/password-reset/confirm/`: the `uid` and `token` of the mailed link, and the new
    password."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=PasswordResetConfirmSerializer,
        responses={
            204: OpenApiResponse(
                description="The password is set; every API token of the user has ended, and the log-in guard "
                "lets the owner in again."
            ),
            400: OpenApiResponse(
                description="`token`: the link is invalid, expired or used already; `new_password`: refused by "
                "the password rules."
            ),
        },
    )
    def post(self, request):
        serializer = PasswordResetConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            password_reset_complete(
                uidb64=data["uid"],
                token=data["token"],
                new_password=data["new_password"],
                address=login_client_address(request),
            )
        except ResetRefused as refused:
            return Response(refused.errors, status=status.HTTP_400_BAD_REQUEST)
        return Response(status=status.HTTP_204_NO_CONTENT)
