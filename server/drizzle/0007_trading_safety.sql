CREATE TABLE "admin_trade_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"owner_id" uuid NOT NULL,
	"api_key_id" uuid NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"body" jsonb,
	"status" integer NOT NULL,
	"result" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"api_key_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"status" integer,
	"response" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_requests_key_client_id_key" UNIQUE("api_key_id","client_id"),
	CONSTRAINT "trade_requests_state_check" CHECK ("trade_requests"."state" in ('running', 'done', 'retry'))
);
--> statement-breakpoint
ALTER TABLE "fills" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "fills" ADD COLUMN "realised_pnl_usd" numeric(38, 12);--> statement-breakpoint
ALTER TABLE "admin_trade_audit" ADD CONSTRAINT "admin_trade_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_trade_audit" ADD CONSTRAINT "admin_trade_audit_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_requests" ADD CONSTRAINT "trade_requests_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_requests" ADD CONSTRAINT "trade_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_trade_audit_owner_at_idx" ON "admin_trade_audit" USING btree ("owner_id","at");--> statement-breakpoint
CREATE INDEX "trade_requests_created_at_idx" ON "trade_requests" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "fills" ADD CONSTRAINT "fills_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fills_api_key_id_time_idx" ON "fills" USING btree ("api_key_id","time");