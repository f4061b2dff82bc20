import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

/** `docs`: the OpenAPI document of every route registered after it, and its UI at `/docs`. */
export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: `${app.config.PRODUCT_NAME} API`, version: app.buildVersion },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: createJsonSchemaTransform({ skipList: ['/docs', '/docs/', '/docs/*', '/docs/json', '/docs/yaml', '/docs/static/*'] }),
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: {
        // "Try it out" must pass the XSRF check like the SPA does: copy the cookie into the header.
        // Serialised into the page with Function#toString, so it must stay self-contained.
        requestInterceptor: (request) => {
          const match = /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie);
          if (match) (request.headers as unknown as Record<string, string>)['X-XSRF-TOKEN'] = decodeURIComponent(match[1]);
          return request;
        },
      },
      staticCSP: true,
      // Same reason as the app's CSP: plain-http deployments must keep loading the page's own assets.
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });
  },
  { name: 'docs', dependencies: ['core', 'http'] },
);
