// The page's downloads from the Hugging Face Hub (app/web/web.cmake runs this before
// the app starts, --pre-js). A link naming ?model=hf-hub:ORG/NAME[@REVISION] holds
// the app's start until the model's files are in the page's file system, at
// /hub/ORG/NAME/REVISION/ (core/hub/hub_fetch_web.cpp opens them there, or reads
// why they are not in /hub/ORG/NAME/REVISION.error). Each file is fetched from
// ENDPOINT/ORG/NAME/resolve/REVISION/FILE (ENDPOINT: the link's hub=, else
// huggingface.co), redirects followed, its size checked against Content-Length
// and, where the answer states it (an ETag of 64 hex digits), its SHA-256; the
// weights' size is shown before they come, and weights too large for a tab are
// refused. Downloads are kept in the browser's Cache Storage under the
// repository, revision and file (not the endpoint, as huggingface_hub's cache),
// so a later visit opens them when the Hub cannot be reached. A model the site holds
// (listed in its hub/bundled.json, tools/web_bundle.sh) opens from the site, with no
// Hub. The page sends no token: a gated repository is refused. (Emscripten 3.1.6's
// minifier reads this file: no destructuring in a for-of loop.)
(function () {
  const params = new URLSearchParams(window.location.search);
  const endpoint = (params.get('hub') || 'https://huggingface.co').replace(/\/+$/, '');
  // Kept in the links the app writes (web_window.cpp) and opens for a Hub model (web_files.cpp).
  if (params.get('hub')) Module.vitvizHubEndpoint = endpoint;
  const name = params.get('model') || '';
  const match = /^hf-hub:([\w.-]+\/[\w.-]+)(?:@(\S+))?$/.exec(name);
  if (!match) return;
  const [repo, revision] = [match[1], match[2] || 'main'];
  const folder = `/hub/${repo}/${revision}`;
  const kMaxWeightBytes = 1.2e9;  // the tab's 4 GB hold the file, its weights as floats and their packed copy

  // The page's loading line (shell.html's #status, which the app's start removes).
  const status = (text) => Module.setStatus(text);
  const amount = (bytes) => (bytes < 1e6 ? (bytes / 1e3).toFixed(1) + ' kB' : (bytes / 1e6).toFixed(1) + ' MB');
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

  // The body of `response` with progress; throws when it is cut short or differs from what was stated.
  async function body(file, response) {
    const size = Number(response.headers.get('Content-Length') || -1);
    if (file.endsWith('.safetensors') && size > kMaxWeightBytes)
      throw new Error(`${file} is ${amount(size)}: a browser tab holds at most 4 GB, about three times ` +
                      `${amount(kMaxWeightBytes)} of weights; open it in the desktop app`);
    const reader = response.body.getReader();
    const pieces = [];
    let done = 0;
    const start = performance.now();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      pieces.push(value);
      done += value.length;
      const seconds = (performance.now() - start) / 1000;
      const speed = done / Math.max(seconds, 1e-3);
      status(`Downloading ${name}: ${file}, ${amount(done)}` + (size > 0 ? ` of ${amount(size)}, ` +
             `${amount(speed)}/s, ${Math.ceil((size - done) / speed)} s left` : ''));
    }
    const bytes = new Uint8Array(done);
    let at = 0;
    for (const piece of pieces) bytes.set(piece, at), at += piece.length;
    // (More than stated: a compressed answer, its length that of the compressed body.)
    if (done < size) throw new Error(`${file}: the download was cut at ${done} of ${size} bytes`);
    const etag = (response.headers.get('ETag') || '').replace(/^W\//, '').replace(/"/g, '');
    if (/^[0-9a-f]{64}$/.test(etag) && hex(await crypto.subtle.digest('SHA-256', bytes)) !== etag)
      throw new Error(`${file}: the file that arrived differs from the Hub's (sha256); not kept`);
    return bytes;
  }

  // One file: from the Hub (kept in Cache Storage), else from Cache Storage when the Hub cannot be
  // reached; null when the Hub has no such file (404).
  async function hubFile(cache, file) {
    const key = `/vitviz-hub/${repo}/${revision}/${file}`;
    let response;
    try {
      response = await fetch(`${endpoint}/${repo}/resolve/${revision}/${file}`);
    } catch (e) {  // no network, or the Hub is down
      const kept = cache && await cache.match(key);
      if (kept) return new Uint8Array(await kept.arrayBuffer());
      throw new Error(`the Hub (${endpoint}) cannot be reached and ${file} is not in this browser's cache`);
    }
    if (response.status === 404) return null;
    if (response.status === 401 || response.status === 403)
      throw new Error(`${file}: the Hub answered ${response.status}: the repository is private or gated, ` +
                      'and the page sends no token; open its files from the computer instead');
    if (!response.ok) throw new Error(`${file}: the Hub answered ${response.status}`);
    const bytes = await body(file, response);
    if (cache) await cache.put(key, new Response(bytes));
    return bytes;
  }

  // The files of this model the site holds (tools/web_bundle.sh), or null when it holds none.
  async function bundledFiles() {
    try {
      const response = await fetch('hub/bundled.json');
      return response.ok ? (await response.json())[`${repo}@${revision}`] || null : null;
    } catch (e) {
      return null;
    }
  }

  // One file of the site's copy, or null when the copy has no such file.
  async function siteFile(bundled, file) {
    if (!bundled.includes(file)) return null;
    const response = await fetch(`hub/${repo}/resolve/${revision}/${file}`);
    if (!response.ok) throw new Error(`${file}: this site lists it but answered ${response.status}`);
    return body(file, response);
  }

  async function download() {
    const bundled = await bundledFiles();
    const cache = window.caches ? await caches.open('vitviz-hub') : null;  // none outside a secure context
    const files = {};
    for (const file of ['config.json', 'model.safetensors', 'preprocessor_config.json']) {
      files[file] = bundled ? await siteFile(bundled, file) : await hubFile(cache, file);
      if (!files[file] && file === 'config.json')
        throw new Error('config.json: not found (404): no such repository, revision or file on the Hub');
      if (!files[file] && file === 'model.safetensors')
        throw new Error('model.safetensors: not found (404): the repository has no safetensors weights ' +
                        '(only safetensors are read)');
    }
    FS.mkdirTree(folder);
    for (const file of Object.keys(files)) if (files[file]) FS.writeFile(`${folder}/${file}`, files[file]);
  }

  Module.preRun = [].concat(Module.preRun || [], () => {
    addRunDependency('hf-hub');
    status(`Downloading ${name}…`);
    download().catch((e) => {
      FS.mkdirTree(folder.substring(0, folder.lastIndexOf('/')));
      FS.writeFile(`${folder}.error`, `${name}: ${e.message}`);
    }).finally(() => removeRunDependency('hf-hub'));
  });
})();
