CREATE TABLE "sim_credentials" (
	"api_key" varchar(64) PRIMARY KEY NOT NULL,
	"exchange" varchar(16) NOT NULL,
	"secret_sealed" varchar(512) NOT NULL,
	"passphrase_sealed" varchar(512) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_credentials_exchange_check" CHECK ("sim_credentials"."exchange" in ('binance', 'bybit', 'okx', 'bitmex'))
);
