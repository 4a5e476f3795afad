import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/**
 * The API reference page (Swagger UI at /api/docs), set up so that axe finds no serious or critical
 * issue on it (decision 032):
 * - the base layout, without the stock top bar: its unlabelled logo image, unlabelled URL box and
 *   low-contrast button only ever pointed at the document this page already shows;
 * - no deep links: they put a link inside each operation's toggle button (nested controls);
 * - the version badges, method labels, links and buttons redrawn with text that contrasts 4.5:1;
 * - the server picker named by a label (Swagger UI renders it with an empty one).
 */
const css = `
.swagger-ui .info .title small, .swagger-ui .info .title small.version-stamp { background: #4b5563; }
.swagger-ui .info .title small pre, .swagger-ui .info .title small.version-stamp pre { color: #fff; }
.swagger-ui .info .title small.version-stamp { background: #3f6212; }
.swagger-ui a, .swagger-ui .info a, .swagger-ui .info .url, .swagger-ui .info .link { color: #1d4ed8; }
.swagger-ui .btn.authorize { color: #047857; border-color: #047857; }
.swagger-ui .btn.authorize svg { fill: #047857; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d4ed8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #047857; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #b45309; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f766e; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #4b5563; }
.swagger-ui .btn.try-out__btn.cancel { color: #b91c1c; border-color: #b91c1c; }
.swagger-ui .download-contents { background: #4b5563; }
.swagger-ui .btn.execute { background-color: #1d4ed8; border-color: #1d4ed8; }
`;

// Swagger UI renders asynchronously and re-renders the picker, so the name is kept by an observer.
const js = `(function () {
  function name() {
    var select = document.getElementById('servers');
    if (select && !select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Server');
  }
  new MutationObserver(name).observe(document.documentElement, { childList: true, subtree: true });
  name();
})();
`;

export const apiReferenceOptions: FastifySwaggerUiOptions = {
  routePrefix: '/api/docs',
  uiConfig: { layout: 'BaseLayout', deepLinking: false },
  theme: {
    title: 'PixelRush API reference',
    css: [{ filename: 'pixelrush.css', content: css }],
    js: [{ filename: 'pixelrush.js', content: js }],
  },
};
