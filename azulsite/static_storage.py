"""The static files' storage: names with a hash of their content once collected."""

from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedOnceCollected(CompressedManifestStaticFilesStorage):
    """``collectstatic`` (production's release step and image) writes each file under a
    name carrying a hash of its content, and whitenoise sends such a name with an immutable
    cache of ten years: a changed file is a new name. Before any collect (``make run``, the
    tests, served from the apps' folders through the finders) there is no manifest, and a
    file keeps its plain name and whitenoise's short cache."""

    def url(self, name, force=False):
        if not self.hashed_files:
            return FileSystemStorage.url(self, name)
        return super().url(name, force)
