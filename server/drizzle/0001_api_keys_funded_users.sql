CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"exchange" text NOT NULL,
	"network" text NOT NULL,
	"api_key_masked" text NOT NULL,
	"ciphertext" text NOT NULL,
	"iv" text NOT NULL,
	"tag" text NOT NULL,
	"kdf_salt" text NOT NULL,
	"kdf_params" jsonb NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_validated_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_exchange_check" CHECK ("api_keys"."exchange" in ('binance', 'bitmex', 'bybit', 'okx')),
	CONSTRAINT "api_keys_network_check" CHECK ("api_keys"."network" in ('MAINNET', 'TESTNET'))
);
--> statement-breakpoint
CREATE TABLE "funded_users" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"added_by" uuid,
	"note" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"max_risk_percent" numeric(9, 4),
	"max_position_notional" numeric(24, 8),
	"max_leverage" numeric(9, 4),
	"daily_loss_limit" numeric(24, 8),
	"allowed_symbols" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "trade_settings_max_risk_check" CHECK ("trade_settings"."max_risk_percent" is null or ("trade_settings"."max_risk_percent" > 0 and "trade_settings"."max_risk_percent" <= 100)),
	CONSTRAINT "trade_settings_max_leverage_check" CHECK ("trade_settings"."max_leverage" is null or "trade_settings"."max_leverage" >= 1)
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"api_key_id" uuid NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"currency" text NOT NULL,
	"note" text,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_type_check" CHECK ("transactions"."type" in ('deposit', 'withdrawal', 'profit-share', 'fee', 'adjustment'))
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funded_users" ADD CONSTRAINT "funded_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funded_users" ADD CONSTRAINT "funded_users_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_settings" ADD CONSTRAINT "trade_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_settings" ADD CONSTRAINT "trade_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_id_created_at_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "funded_users_created_at_user_id_idx" ON "funded_users" USING btree ("created_at","user_id");--> statement-breakpoint
CREATE INDEX "transactions_api_key_id_occurred_at_idx" ON "transactions" USING btree ("api_key_id","occurred_at","id");