"""Registration, tokens and log-out (api-v1 "Auth" and its v1.1 additions).

Tokens are django-rest-knox's: a new one at every log-in, ending after `TOKEN_TTL` (league/tokens.py). Failed
log-ins go through the log-in guard (league/logins.py): a waiting attempt is answered 429 with Retry-After before
its password is checked.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, password_validation, user_logged_in
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.logins import Lockout, login_attempt_begin, login_attempt_succeeded, login_client_address
from league.tokens import TokenAuthentication, token_issue, token_revoke, token_revoke_all


class DugoutTokenScheme(KnoxTokenScheme):
    """The schema's `Authorization: Token <token>` scheme for our knox subclass (spectacular matches exact classes)."""

    target_class = "league.tokens.TokenAuthentication"
    name = "tokenAuth"


TOKEN_OUT = inline_serializer(
    "TokenOut",
    {"token": serializers.CharField(), "expiry": serializers.DateTimeField(allow_null=True)},
)


def lockout_response(lockout: Lockout) -> Response:
    """429 in words, and when to come back in the Retry-After header (seconds)."""
    return Response(
        {"detail": lockout.message},
        status=status.HTTP_429_TOO_MANY_REQUESTS,
        headers={"Retry-After": str(lockout.retry_after())},
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
        },
    )
    def post(self, request):
        if not settings.OPEN_REGISTRATION:
            raise PermissionDenied("Registration is closed on this Dugout.")
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = get_user_model().objects.create_user(data["username"], data.get("email", ""), data["password"])
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
                description="Too many failed log-ins for this account: the Retry-After header says when."
            ),
        },
    )
    def post(self, request):
        serializer = TokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        credentials = serializer.validated_data
        attempt = login_attempt_begin(username=credentials["username"], address=login_client_address(request))
        if isinstance(attempt, Lockout):
            return lockout_response(attempt)
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
