CREATE TABLE "paper_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"api_key" text NOT NULL,
	"exchange" text NOT NULL,
	"network" text NOT NULL,
	"as_of" timestamp (3) with time zone NOT NULL,
	"next_id" bigint NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paper_accounts_key_exchange_network_key" UNIQUE("api_key","exchange","network"),
	CONSTRAINT "paper_accounts_network_check" CHECK ("paper_accounts"."network" in ('MAINNET', 'TESTNET'))
);
--> statement-breakpoint
CREATE TABLE "paper_balances" (
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"wallet" numeric(38, 18) NOT NULL,
	CONSTRAINT "paper_balances_account_id_currency_pk" PRIMARY KEY("account_id","currency")
);
--> statement-breakpoint
CREATE TABLE "paper_fills" (
	"account_id" uuid NOT NULL,
	"fill_id" bigint NOT NULL,
	"order_id" bigint NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"qty" numeric(38, 18) NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"fee_currency" text NOT NULL,
	"realised_pnl" numeric(38, 18) NOT NULL,
	"maker" boolean NOT NULL,
	"liquidation" boolean NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "paper_fills_account_id_fill_id_pk" PRIMARY KEY("account_id","fill_id"),
	CONSTRAINT "paper_fills_side_check" CHECK ("paper_fills"."side" in ('BUY', 'SELL'))
);
--> statement-breakpoint
CREATE TABLE "paper_orders" (
	"account_id" uuid NOT NULL,
	"order_id" bigint NOT NULL,
	"client_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"time_in_force" text NOT NULL,
	"post_only" boolean NOT NULL,
	"reduce_only" boolean NOT NULL,
	"close_position" boolean NOT NULL,
	"qty" numeric(38, 18) NOT NULL,
	"filled_qty" numeric(38, 18) NOT NULL,
	"price" numeric(38, 18),
	"trigger_price" numeric(38, 18),
	"trigger_direction" text,
	"status" text NOT NULL,
	"triggered_at" timestamp (3) with time zone,
	"released_id" bigint,
	"sum_price_qty" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"realised_pnl" numeric(38, 18) NOT NULL,
	"reason" text,
	"meta" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "paper_orders_account_id_order_id_pk" PRIMARY KEY("account_id","order_id"),
	CONSTRAINT "paper_orders_side_check" CHECK ("paper_orders"."side" in ('BUY', 'SELL'))
);
--> statement-breakpoint
CREATE TABLE "paper_positions" (
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"size" numeric(38, 18) NOT NULL,
	"cost" numeric(38, 18) NOT NULL,
	"isolated_margin" numeric(38, 18) NOT NULL,
	"open_fees" numeric(38, 18) NOT NULL,
	"realised_pnl" numeric(38, 18) NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "paper_positions_account_id_symbol_pk" PRIMARY KEY("account_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "paper_settings" (
	"account_id" uuid NOT NULL,
	"symbol" text NOT NULL,
	"leverage" integer NOT NULL,
	"margin_mode" text NOT NULL,
	CONSTRAINT "paper_settings_account_id_symbol_pk" PRIMARY KEY("account_id","symbol"),
	CONSTRAINT "paper_settings_margin_mode_check" CHECK ("paper_settings"."margin_mode" in ('cross', 'isolated'))
);
--> statement-breakpoint
ALTER TABLE "paper_balances" ADD CONSTRAINT "paper_balances_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_fills" ADD CONSTRAINT "paper_fills_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD CONSTRAINT "paper_positions_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_settings" ADD CONSTRAINT "paper_settings_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_fills_account_symbol_time_idx" ON "paper_fills" USING btree ("account_id","symbol","time");--> statement-breakpoint
CREATE INDEX "paper_orders_account_status_idx" ON "paper_orders" USING btree ("account_id","status");--> statement-breakpoint
CREATE INDEX "paper_orders_account_symbol_idx" ON "paper_orders" USING btree ("account_id","symbol","order_id");--> statement-breakpoint
CREATE INDEX "paper_orders_account_client_id_idx" ON "paper_orders" USING btree ("account_id","client_id");