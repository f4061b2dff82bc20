import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail; the app takes one in its dependencies so tests can capture messages. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close?(): void;
}

/**
 * SMTP when `SMTP_URL` is set (DESIGN §4); otherwise the message is written to the server log,
 * which is how a developer gets a reset link without a mail server.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; log: FastifyBaseLogger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(message) {
        opts.log.info({ mail: message }, `E-mail (no SMTP_URL set, so logged instead of sent) to ${message.to}: ${message.subject}\n${message.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: opts.from, ...message });
    },
    close: () => transport.close(),
  };
}
