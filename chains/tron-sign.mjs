// Signs a Tron transaction's raw_data as TronWeb does, offline (TronWeb's own utilities, npm `tronweb`; no node is
// asked anything): the reference the Sandbox's tests hold the app's own Tron signer to, byte for byte.
//
//   node tron-sign.mjs <private key hex> <raw_data_hex> [--address]
//       prints {"txID": "<sha256(raw_data), hex>", "signature": "<r || s || v, 65 bytes hex, v = 27 or 28>"}
//       (with --address, also "address" (Base58) and "addressHex" (41...) of the key)
//   node tron-sign.mjs --address <private key hex>
//       prints {"address": "T...", "addressHex": "41..."}
//
// TronWeb signs the txID (sha256 of the raw_data bytes) with secp256k1, RFC 6979 deterministic nonces and low S
// (ethereum-cryptography's noble secp256k1), so one key and one raw_data give one signature.
import { utils } from "tronweb";

const args = process.argv.slice(2);
const wantsAddress = args.includes("--address");
const [key, rawDataHex] = args.filter((a) => a !== "--address");

function fail(message) {
  console.error(`tron-sign: ${message}`);
  console.error("usage: node tron-sign.mjs <private key hex> <raw_data_hex> [--address] | --address <private key hex>");
  process.exit(2);
}

const isHex = (text) => typeof text === "string" && /^(0x)?([0-9a-fA-F]{2})+$/.test(text);
if (!isHex(key) || key.replace(/^0x/, "").length !== 64) fail("the private key must be 32 bytes of hex");
const privateKey = key.replace(/^0x/, "");

const out = {};
if (rawDataHex !== undefined) {
  if (!isHex(rawDataHex)) fail("raw_data_hex must be hex");
  const rawBytes = utils.code.hexStr2byteArray(rawDataHex.replace(/^0x/, ""));
  // The txID exactly as TronWeb computes it (utils.transaction.txPbToTxID: sha256 over the raw_data bytes) ...
  out.txID = utils.bytes.byteArray2hexStr(utils.crypto.SHA256(rawBytes)).toLowerCase();
  // ... and its signature as TronWeb's trx.sign makes it (utils.crypto.signTransaction -> ECKeySign(txID)).
  const signed = utils.crypto.signTransaction(privateKey, { txID: out.txID, raw_data_hex: rawDataHex });
  out.signature = signed.signature[0].toLowerCase();
} else if (!wantsAddress) {
  fail("raw_data_hex is missing");
}
if (wantsAddress) {
  out.address = utils.crypto.pkToAddress(privateKey);
  out.addressHex = utils.address.toHex(out.address).toLowerCase();
}
console.log(JSON.stringify(out));
