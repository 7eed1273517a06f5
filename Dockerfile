# The bot as a container: slim Python, a non-root user, data in a volume.
#   docker build -t pontoon-bot .
#   docker run -e DISCORD_TOKEN=... -v pontoon-data:/data pontoon-bot
# With PostgreSQL: compose.yaml. Every setting is an environment variable (.env.example).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
COPY engine ./engine
COPY localdiscord ./localdiscord
RUN pip install . && rm -rf /src

RUN useradd --create-home --uid 10001 bot && mkdir -p /data && chown bot:bot /data
USER bot
WORKDIR /data
# the database and its backups (DATA_DIR); keep it on a volume
ENV DATA_DIR=/data \
    METRICS_PORT=9100 \
    LOG_FORMAT=json
VOLUME ["/data"]

HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
