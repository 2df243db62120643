"""Events in the admin: to read, never to add, change or delete."""

from django.contrib import admin

from events.models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("stream", "seq", "type", "version", "actor", "reason", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream", "actor", "type")
    ordering = ("stream", "seq")

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
