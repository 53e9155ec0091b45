# One image for every Pinbid process; the command picks the service:
#   python -m pinbid_launcher service <identity|marketplace|payments|social|content>
#   python -m pinbid_launcher gateway
#   python -m pinbid_launcher migrate <service>      (the Kubernetes migration Jobs)
# Base images are pinned to exact releases; pin them by digest (image@sha256:...) where the registry is reachable.
FROM node:20.20.2-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
# `npm install` with the lock, not `npm ci`: the lock lists only the Linux builds of Tailwind's optional
# packages, which `npm ci` refuses (docs/decisions/web.md); the lock still fixes every version
RUN npm install --no-audit --no-fund
COPY web/ ./
COPY contracts/ /src/contracts/
RUN npm run build

FROM python:3.11.7-slim-bookworm AS app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy \
    PINBID_HOME=/app PINBID_VAR=/var/lib/pinbid PATH=/app/.venv/bin:$PATH
RUN pip install --no-cache-dir uv==0.13.9 && useradd --uid 10001 --create-home pinbid
WORKDIR /app
# Dependencies first, from the lock and the members' pyproject files only: this layer changes with the lock,
# not with the code.
COPY pyproject.toml uv.lock ./
COPY services/kit/pyproject.toml services/kit/
COPY services/identity/pyproject.toml services/identity/
COPY services/marketplace/pyproject.toml services/marketplace/
COPY services/payments/pyproject.toml services/payments/
COPY services/social/pyproject.toml services/social/
COPY services/content/pyproject.toml services/content/
COPY gateway/pyproject.toml gateway/
COPY infra/launcher/pyproject.toml infra/launcher/
RUN uv sync --frozen --no-dev --no-install-workspace
COPY services/ services/
COPY gateway/ gateway/
COPY infra/launcher/ infra/launcher/
COPY contracts/ contracts/
RUN uv sync --frozen --no-dev && mkdir -p /var/lib/pinbid/keys && chown -R pinbid /var/lib/pinbid
COPY --from=web /src/web/dist /app/web/dist
USER 10001
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/readyz').status != 200)"
CMD ["python", "-m", "pinbid_launcher", "gateway"]
