"""Registration and tokens (api-v1 "Auth"). Repeated failed logins are throttled (429)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class LoginFailureThrottle(SimpleRateThrottle):
    """Counts only failed logins, per client address: a coach who types his password right is never slowed."""

    scope = "login_failures"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view) -> bool:
        self.key = self.get_cache_key(request, view)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return self.throttle_failure()
        return True

    def record_failure(self) -> None:
        self.history.insert(0, self.now)
        self.cache.set(self.key, self.history, self.duration)


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
            )
        },
    )
    def post(self, request):
        if not settings.OPEN_REGISTRATION:
            raise PermissionDenied("Registration is closed on this Dugout.")
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = get_user_model().objects.create_user(data["username"], data.get("email", ""), data["password"])
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"id": user.pk, "username": user.username, "token": token.key}, status=status.HTTP_201_CREATED)


class TokenSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [LoginFailureThrottle]

    @extend_schema(
        request=TokenSerializer, responses={200: inline_serializer("TokenOut", {"token": serializers.CharField()})}
    )
    def post(self, request):
        serializer = TokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request, **serializer.validated_data)
        if user is None:
            for throttle in self.get_throttles():
                throttle.record_failure()
            return Response({"detail": "Unknown username or wrong password."}, status=status.HTTP_400_BAD_REQUEST)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})

    def get_throttles(self):
        # DRF builds fresh throttle objects per call; keep the ones that checked this request.
        if not hasattr(self, "_throttles"):
            self._throttles = super().get_throttles()
        return self._throttles
