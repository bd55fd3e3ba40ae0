// A static file server for the page (build-web/site): `node serve.mjs DIR [PORT]`
// serves DIR at http://127.0.0.1:PORT (8000 by default) with the types a
// browser needs for .wasm and .data. Used by tools/web.sh and the page tests;
// the site needs no special headers, so any static host serves it the same.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const kTypes = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.data': 'application/octet-stream', '.png': 'image/png', '.jpg': 'image/jpeg', '.json': 'application/json',
};

// Serves `root` on `port`; resolves to the listening server.
export function serve(root, port = 8000) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const file = normalize(join(base, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(base)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': kTypes[extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root, port] = [process.argv[2], Number(process.argv[3] || 8000)];
  if (!root) {
    console.error('usage: node serve.mjs DIR [PORT]');
    process.exit(2);
  }
  serve(root, port).then(
    () => console.log(`ViT Visualizer: http://127.0.0.1:${port}/ (Ctrl+C stops)`),
    (e) => {
      console.error(`serve.mjs: cannot listen on 127.0.0.1:${port}: ${e.message}`);
      process.exit(1);
    });
}
