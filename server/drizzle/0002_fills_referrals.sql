CREATE TABLE "fills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"exchange" text NOT NULL,
	"network" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"qty" numeric(38, 12) NOT NULL,
	"price" numeric(38, 12) NOT NULL,
	"notional_usd" numeric(38, 12) NOT NULL,
	"notional_xbt" numeric(38, 12),
	"fee_usd" numeric(38, 12) DEFAULT 0 NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"external_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fills_network_check" CHECK ("fills"."network" in ('MAINNET', 'TESTNET')),
	CONSTRAINT "fills_side_check" CHECK ("fills"."side" in ('BUY', 'SELL'))
);
--> statement-breakpoint
CREATE TABLE "referral_exchange_months" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exchange" text NOT NULL,
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"month" timestamp (3) with time zone NOT NULL,
	"total_exchange_volume" numeric(38, 12) NOT NULL,
	"total_exchange_income" numeric(38, 12) NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_exchange_months_exchange_check" CHECK ("referral_exchange_months"."exchange" in ('BITMEX', 'BINANCE')),
	CONSTRAINT "referral_exchange_months_network_check" CHECK ("referral_exchange_months"."network" in ('MAINNET', 'TESTNET')),
	CONSTRAINT "referral_exchange_months_currency_check" CHECK ("referral_exchange_months"."currency" in ('USD', 'XBT'))
);
--> statement-breakpoint
CREATE TABLE "referrer_incomes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"referrer_id" uuid NOT NULL,
	"exchange" text NOT NULL,
	"network" text NOT NULL,
	"month" timestamp (3) with time zone NOT NULL,
	"income" numeric(38, 12) NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referrer_incomes_exchange_check" CHECK ("referrer_incomes"."exchange" in ('BITMEX', 'BINANCE')),
	CONSTRAINT "referrer_incomes_network_check" CHECK ("referrer_incomes"."network" in ('MAINNET', 'TESTNET'))
);
--> statement-breakpoint
ALTER TABLE "fills" ADD CONSTRAINT "fills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_exchange_months" ADD CONSTRAINT "referral_exchange_months_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrer_incomes" ADD CONSTRAINT "referrer_incomes_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrer_incomes" ADD CONSTRAINT "referrer_incomes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fills_exchange_network_external_id_idx" ON "fills" USING btree ("exchange","network","external_id");--> statement-breakpoint
CREATE INDEX "fills_user_id_time_idx" ON "fills" USING btree ("user_id","time");--> statement-breakpoint
CREATE INDEX "fills_exchange_network_time_idx" ON "fills" USING btree ("exchange","network","time");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_exchange_months_key_idx" ON "referral_exchange_months" USING btree ("exchange","network","currency","month");--> statement-breakpoint
CREATE UNIQUE INDEX "referrer_incomes_key_idx" ON "referrer_incomes" USING btree ("referrer_id","exchange","network","month");--> statement-breakpoint
CREATE INDEX "referrer_incomes_exchange_month_idx" ON "referrer_incomes" USING btree ("exchange","network","month");