# syntax=docker/dockerfile:1
# chamberctl for CI jobs: the linux single executable on a small Debian, no Node. BuildKit builds
# it for the platform asked for (TARGETARCH), from the binaries `npm run package` makes:
#   npm run package && docker build -t chamberctl .
#   docker buildx build --platform linux/amd64,linux/arm64 -t chamberctl .
# Run a command (credentials from the environment), or, by default, the sandbox for other
# containers and the host to reach:
#   docker run --rm -e CHAMBERCTL_BASE_URL -e CHAMBERCTL_TOKEN chamberctl chambers list --json
#   docker run --rm -p 4010:4010 chamberctl

# One stage per architecture, named by BuildKit's TARGETARCH, holding the binary of Node's name
# for it; only the stage of the platform being built is used (another is an error: no binary).
ARG TARGETARCH
FROM scratch AS binary-amd64
COPY release/chamberctl-linux-x64 /chamberctl
FROM scratch AS binary-arm64
COPY release/chamberctl-linux-arm64 /chamberctl
FROM binary-${TARGETARCH} AS binary

# Pinned by the digest of debian:bookworm-slim's multi-platform index (amd64 and arm64 resolve
# from it), so that a rebuild starts from the same bytes. Refresh it with
#   docker buildx imagetools inspect debian:bookworm-slim     (its "Digest:" line)
# or `crane digest debian:bookworm-slim`, or let Renovate or Dependabot do it. This one was taken
# from public Dockerfiles and Renovate updates of 2026-08, not checked against the registry.
FROM debian:bookworm-slim@sha256:88200866dfff7ea7f5cbcb6ec7c8a701889efe6fe859fe64d6990e4b07ea4171

# Set by the release: --build-arg VERSION=$(node -p "require('./package.json').version")
#   --build-arg REVISION=$(git rev-parse HEAD)
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/chamberctl/chamberctl
LABEL org.opencontainers.image.title="chamberctl" \
      org.opencontainers.image.description="Administer and query a chamber directory service; runs its sandbox by default" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"

# The binary is Node's: glibc, libstdc++ (in the base image) and libatomic; the CA certificates
# are Node's own.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libatomic1 \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 chamberctl
COPY --from=binary --chmod=755 /chamberctl /usr/local/bin/chamberctl

# No keyring in a container: credentials come from the environment (CHAMBERCTL_TOKEN, or
# CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET), or from a login with --insecure-storage.
USER chamberctl
ENTRYPOINT ["chamberctl"]

# By default the sandbox, on every interface so that the host (-p 4010:4010) and other containers
# reach it; it prints a warning saying so, since its credentials are fixed and known. Healthy
# when it answers GET /_sandbox/health on port 4010 (a sandbox given another --port needs
# `--health-cmd "chamberctl sandbox --check --port N"`). A one-off command exits long before the
# first check.
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=6s --start-period=5s --retries=3 \
  CMD ["chamberctl", "sandbox", "--check"]
CMD ["sandbox", "--host", "0.0.0.0"]
