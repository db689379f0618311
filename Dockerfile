# chamberctl for CI jobs: the linux single executable on a small Debian, no Node.
#   npm run package && docker build -t chamberctl .
#   docker run --rm -e CHAMBERCTL_BASE_URL -e CHAMBERCTL_TOKEN chamberctl chambers list --json
# ARCH=arm64 (docker build --build-arg ARCH=arm64 --platform linux/arm64) takes the arm64 binary.
FROM debian:bookworm-slim
# The binary is Node's: glibc, libstdc++ (in the base image) and libatomic; the CA certificates
# are Node's own.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libatomic1 \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --create-home --uid 10001 chamberctl
ARG ARCH=x64
COPY --chmod=755 release/chamberctl-linux-${ARCH} /usr/local/bin/chamberctl
# No keyring in a container: credentials come from the environment (CHAMBERCTL_TOKEN, or
# CHAMBERCTL_CLIENT_ID and CHAMBERCTL_CLIENT_SECRET), or from a login with --insecure-storage.
USER chamberctl
ENTRYPOINT ["chamberctl"]
