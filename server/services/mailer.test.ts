import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createMailer } from './mailer';

describe('createMailer without SMTP_URL', () => {
  it('writes the whole message (with the link) to the log instead of sending it', async () => {
    const lines: string[] = [];
    const log = { info: (_obj: unknown, msg: string) => lines.push(msg) } as unknown as FastifyBaseLogger;
    const mailer = createMailer({ from: 'CT <no-reply@localhost>', log });
    await mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'Open http://x/change-password?token=abc' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('a@example.com');
    expect(lines[0]).toContain('http://x/change-password?token=abc');
  });
});
