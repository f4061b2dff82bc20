CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"exchange" text NOT NULL,
	"symbol" text NOT NULL,
	"initial_price" double precision NOT NULL,
	"trigger_price" double precision NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"triggered_at" timestamp (3) with time zone,
	"triggered_price" double precision,
	"note" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_status_check" CHECK ("alerts"."status" in ('active', 'triggered')),
	CONSTRAINT "alerts_exchange_check" CHECK ("alerts"."exchange" in ('binance', 'bitmex', 'bybit', 'okx'))
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerts_user_id_status_idx" ON "alerts" USING btree ("user_id","status");