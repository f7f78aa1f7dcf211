-- The fediverse (issue 39, part 1: being found). Fedify's key-value store on the app's database: its caches
-- (remote documents, keys) and idempotence marks. `key` is the JSON of Fedify's key array (["_fedify", …]),
-- so a prefix of the array is a prefix of the text; a row past its expires_at is treated as gone and swept
-- hourly (modules/federation/federation.kv.ts).
CREATE TABLE "federation_kv" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone
);--> statement-breakpoint
CREATE INDEX "federation_kv_expires_idx" ON "federation_kv" USING btree ("expires_at") WHERE "federation_kv"."expires_at" is not null;--> statement-breakpoint
-- Each account's actor key pairs, made on first need: RSA-PKCS1-v1_5 (2,048 bits, for HTTP signatures) and
-- Ed25519 (Object Integrity Proofs), one row per account and algorithm, both halves as JWK. The primary key
-- keeps two first requests from making two keys: each inserts on conflict do nothing, then reads the row.
CREATE TABLE "actor_keys" (
	"user_id" uuid NOT NULL,
	"algorithm" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "actor_keys_pkey" PRIMARY KEY("user_id","algorithm"),
	CONSTRAINT "actor_keys_algorithm_check" CHECK ("actor_keys"."algorithm" in ('RSASSA-PKCS1-v1_5', 'Ed25519'))
);--> statement-breakpoint
ALTER TABLE "actor_keys" ADD CONSTRAINT "actor_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
