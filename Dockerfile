# The image web, worker, beat and the release step run (compose.yaml). Production
# requirements only: no test tools, no browser.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    AZULSITE_VAR_DIR=/app/var \
    PORT=8000

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
# Catalogs are compiled and static files collected into the image; the key only lets settings load for that step.
# They are the build's part of a deploy; the release step (the Procfile's) is the database's.
RUN SECRET_KEY=collectstatic-only python manage.py compilemessages --verbosity 0 \
    && SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input \
    && useradd --system --uid 10001 --home-dir /app azulsite \
    && mkdir -p /app/var/metrics \
    && chown -R azulsite /app/var
USER 10001

EXPOSE 8000
# gunicorn binds 0.0.0.0:$PORT and takes its number of workers from WEB_CONCURRENCY.
CMD ["gunicorn", "azulsite.wsgi", "--access-logfile", "-"]
