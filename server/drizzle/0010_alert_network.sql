-- Issue 26 §3: an alert is evaluated on the network it was set on. Every alert before this one was
-- evaluated on MAINNET prices (the simulator's market included), so existing rows say MAINNET; the
-- default only backfills them and is dropped: every insert names its network.
DROP INDEX "alerts_exchange_status_idx";--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "network" text DEFAULT 'MAINNET' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ALTER COLUMN "network" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "alerts_exchange_network_status_idx" ON "alerts" USING btree ("exchange","network","status");--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_network_check" CHECK ("alerts"."network" in ('MAINNET', 'TESTNET'));
