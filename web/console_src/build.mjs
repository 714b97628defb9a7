// Builds ../console/codemirror.js (one minified ES module, no imports) and
// ../console/codemirror.LICENSE.txt (the licenses of every package bundled into it).
// Run: npm ci && npm run build (the versions are pinned in package.json and package-lock.json).
import { build } from 'esbuild';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const out = new URL('../console/', import.meta.url).pathname;

// CodeMirror puts its own styles in a <style> element, which the console's Content-Security-
// Policy (style-src 'self', no 'unsafe-inline') refuses. style-mod already gives shadow roots a
// constructed stylesheet (document.adoptedStyleSheets), which CSP allows: this makes it do the
// same for the document. The check fails the build if style-mod's code changes.
const ADOPT_FOR_DOCUMENTS = {
  name: 'style-mod-adopted-sheets',
  setup(b) {
    b.onLoad({ filter: /style-mod[\\/]src[\\/]style-mod\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const guard = 'if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {';
      if (!source.includes(guard)) throw new Error('style-mod changed: review the CSP patch');
      return { contents: source.replace(guard,
        'if (root.adoptedStyleSheets && win.CSSStyleSheet) {'), loader: 'js' };
    });
  },
};
const result = await build({
  entryPoints: ['entry.js'],
  bundle: true,
  format: 'esm',
  minify: true,
  legalComments: 'none', // the licenses go to codemirror.LICENSE.txt instead
  target: 'es2020',
  outfile: join(out, 'codemirror.js'),
  metafile: true,
  plugins: [ADOPT_FOR_DOCUMENTS],
  banner: { js: '// CodeMirror 6 for the queryhttp console (built by web/console_src/build.mjs; licenses: codemirror.LICENSE.txt)' },
});

// the packages whose code is in the bundle, with their licenses
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) packages.add(match[1]);
}
const sections = [];
for (const name of [...packages].sort()) {
  const folder = join('node_modules', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(folder).find((f) => /^licen[cs]e/i.test(f));
  const text = licenseFile && existsSync(join(folder, licenseFile))
    ? readFileSync(join(folder, licenseFile), 'utf8').trim() : `License: ${manifest.license}`;
  sections.push(`${name} ${manifest.version} (${manifest.license})\n\n${text}`);
}
writeFileSync(join(out, 'codemirror.LICENSE.txt'),
  `The console's editor bundle (codemirror.js) holds these packages:\n\n${sections.join('\n\n' + '-'.repeat(72) + '\n\n')}\n`);
console.log(`codemirror.js: ${[...packages].length} packages`);
