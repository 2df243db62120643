"""Web Push subscriptions (``/api/push-subscriptions/``): the site's public VAPID key to
subscribe with, and a device's ``PushSubscription.toJSON()`` stored or removed. A
player may have several devices; which notices each kind sends is chosen per channel on
the preferences page."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.toolkit import Api, errors, validated
from games.models import PushSubscription
from games.notify.channels.push import vapid
from games.services.push import push_subscribe, push_unsubscribe


@extend_schema_serializer(component_name="PushKeys")
class KeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=128, help_text="the device's P-256 key, base64url")
    auth = serializers.CharField(max_length=64, help_text="the device's 16-byte secret, base64url")


class PushSubscriptionApi(Api):
    """Your devices for push notifications."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PushSubscription")
    class InputSerializer(serializers.Serializer):
        endpoint = serializers.CharField(
            max_length=1024, help_text="the push service's URL for the device (https)"
        )
        expirationTime = serializers.IntegerField(  # noqa: N815 (the browser's name)
            required=False, allow_null=True, help_text="milliseconds since 1970, or null"
        )
        keys = KeysSerializer()

    @extend_schema_serializer(component_name="PushEndpoint")
    class EndpointSerializer(serializers.Serializer):
        endpoint = serializers.CharField(max_length=1024)

    @extend_schema_serializer(component_name="PushSettings")
    class OutputSerializer(serializers.Serializer):
        public_key = serializers.CharField(
            help_text="the site's VAPID key: pushManager.subscribe's applicationServerKey"
        )
        endpoints = serializers.ListField(
            child=serializers.CharField(), help_text="your devices' endpoints"
        )

    @extend_schema(
        summary="The key to subscribe with, and your devices",
        operation_id="push_subscriptions_list",
        responses={200: OutputSerializer, **errors(401)},
    )
    def get(self, request):
        endpoints = PushSubscription.objects.filter(user=request.user).order_by("pk")
        data = {
            "public_key": vapid.public_key(),
            "endpoints": list(endpoints.values_list("endpoint", flat=True)),
        }
        return Response(self.OutputSerializer(data).data)

    @extend_schema(
        summary="Push notifications to this device",
        description="The body a browser's PushSubscription.toJSON() gives. 201 when new, "
        "200 when it was stored already (its keys are updated); 400 push_endpoint_refused "
        "for an endpoint that is not a known push service over https; 409 "
        "push_endpoint_taken for an endpoint stored for another account, unless the body "
        "carries the keys stored with it (the same browser, now signed in as you).",
        operation_id="push_subscriptions_create",
        request=InputSerializer,
        responses={200: EndpointSerializer, 201: EndpointSerializer, **errors(400, 401, 409)},
    )
    def post(self, request):
        data = validated(self.InputSerializer, request.data)
        subscription, new = push_subscribe(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            expiration_time=data.get("expirationTime"),
        )
        return Response(
            {"endpoint": subscription.endpoint},
            status=status.HTTP_201_CREATED if new else status.HTTP_200_OK,
        )

    @extend_schema(
        summary="No more push notifications to this device",
        description="204 whether or not it was stored.",
        operation_id="push_subscriptions_delete",
        request=EndpointSerializer,
        responses={204: None, **errors(400, 401)},
    )
    def delete(self, request):
        data = validated(self.EndpointSerializer, request.data)
        push_unsubscribe(user=request.user, endpoint=data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)
