# harness with k6 inside: `harness conformance` and `harness load` with nothing else installed (docs/container.md).
# Build from a clone: docker build -t harness .   (or podman build -t harness .)
# The base images are build arguments so a builder without registry access can substitute its own
# (scripts/image.ts does, with bases made locally); a user's builder pulls these public ones.
ARG NODE_IMAGE=node:22-bookworm-slim
ARG GO_IMAGE=golang:1.26-bookworm

# k6 v2.2.0 with harness's checkpoint output and token reader (load/checkpoint), built as scripts/build-k6.ts builds
# it: a scratch module that `go get`s the pinned k6 and builds harness's package main against it.
FROM ${GO_IMAGE} AS k6
ARG K6_VERSION=v2.2.0
ARG GOPROXY=https://proxy.golang.org,direct
ARG GOSUMDB=sum.golang.org
# CGO off: the binary moves to another image, so it links nothing from this one.
ENV GOPROXY=${GOPROXY} GOSUMDB=${GOSUMDB} GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0
WORKDIR /build
COPY load/checkpoint/ ./
RUN printf 'module harness/gotool\n\ngo 1.25\n' > go.mod \
 && go get "go.k6.io/k6/v2@${K6_VERSION}" \
 && go build -trimpath -ldflags='-s -w' -o /out/k6 . \
 && /out/k6 version | grep -q 'harness-checkpoint \[output\]'

# harness's dist/, as `npm pack` builds it (scripts/build.ts): JavaScript for Node, the k6 scripts as TypeScript.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin/ bin/
COPY src/ src/
COPY core/ core/
COPY conformance/ conformance/
COPY load/ load/
COPY scripts/build.ts scripts/
# The build context has no git history: the commit a report names comes from here.
ARG REVISION=unknown
RUN npx tsx scripts/build.ts \
 && printf '{\n  "commit": "%s"\n}\n' "${REVISION}" > dist/build-info.json

FROM ${NODE_IMAGE}
WORKDIR /opt/harness
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/bin/harness.js bin/
COPY --from=build /src/dist/ dist/
COPY schema/ schema/
COPY LICENSE ./
COPY --from=k6 /out/k6 /usr/local/bin/k6
RUN ln -s /opt/harness/bin/harness.js /usr/local/bin/harness \
 && useradd --uid 10001 --create-home harness \
 && mkdir /reports && chown harness:harness /reports
USER harness
ENV K6_BIN=/usr/local/bin/k6 HOME=/home/harness
# harness writes to ./reports by default: from /, that is the volume.
WORKDIR /
VOLUME /reports
ENTRYPOINT ["harness"]
CMD ["--help"]
# Last, so a new build date or commit rebuilds no layer.
ARG REVISION=unknown
ARG VERSION=0.1.0
ARG CREATED=unknown
LABEL org.opencontainers.image.title="harness" \
      org.opencontainers.image.description="Conformance and rate-limit load testing for servers implementing SPEC.md, with k6 v2.2.0 inside" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}"
