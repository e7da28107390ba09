// The Sandbox's Tron chain: a loopback stand-in of java-tron's FullNode HTTP API (the `/wallet/...` endpoints a
// wallet uses) whose smart contracts run on a real EVM node (anvil, started here as a child), since no Tron node can
// run on this machine.
//
//   node tron-node.mjs [--port N] [--config JSON]     prints "LISTENING <port>" once it answers; exits when its
//                                                     standard input ends (and its anvil with it)
//
//   config: {"gateway": "T... or 41hex", "tokens": [{"address": "T...", "symbol": "USDT", "name": "Tether USD",
//            "decimals": 6}], "energyFee": 420, "transactionFee": 1000, "freeNetLimit": 600}   (all optional)
//
// What is real:
//   - transactions are protobuf (protocol.Transaction / Transaction.raw / Transaction.Contract / google.protobuf.Any /
//     TriggerSmartContract / TransferContract, java-tron's field numbers), decoded from the bytes that were signed;
//     the txID is sha256 of the raw_data bytes;
//   - the signature (65 bytes r||s||v, secp256k1 over sha256(raw_data)) must recover to the contract's
//     owner_address (0x41 || keccak256(public key)[12..]);
//   - TaPoS: ref_block_bytes / ref_block_hash must name one of this chain's recent blocks; expiration must be in the
//     future and at most 24 h ahead; fee_limit at most 15,000 TRX; a transaction id is accepted once;
//   - contract calls run on the EVM (anvil): msg.sender is the owner's 20 bytes, call_value moves TRX (1 sun is 1
//     wei of anvil's native balance), reverts and running out of energy roll the call back, logs are the EVM's;
//   - fees: energy × getEnergyFee and bandwidth (the signed Transaction's protobuf bytes + 64, as java-tron counts
//     them; free up to 600 bytes a day per account, else bytes × getTransactionFee) are burned from the owner's TRX;
//     a call's energy is capped by fee_limit and by the owner's balance.
// What is approximated (the Sandbox's, not Tron's):
//   - energy = the EVM's gas used (so it includes the EVM's 21,000 base cost and calldata gas, which the TVM does
//     not charge, and EVM opcode prices); triggerconstantcontract / estimateenergy report eth_estimateGas;
//   - no staking: nobody has staked energy or bandwidth; the network totals in getaccountresource are constants;
//   - blocks: one block per broadcast transaction (failed or not), plus an empty block whenever a request comes
//     3 s or more after the head block (so a new transaction's ref block and expiration stay fresh); blocks are
//     not signed by a witness and their txTrieRoot is sha256 of their txIDs, not a Merkle root;
//   - the clock is the machine's plus what /sandbox/expire added;
//   - a TransferContract to an account that does not exist yet burns 0.1 TRX of bandwidth plus 1 TRX account
//     creation fee, as java-tron does for an owner without staked bandwidth; other contract types are refused;
//   - duplicate check: only transactions this chain accepted count (java-tron's node cache also refuses a
//     re-broadcast of a transaction it refused within the hour).
//
// Endpoints (POST with a JSON body, or GET with query parameters; answers are JSON): /wallet/getnowblock,
// getblockbynum, getblockbyid, getblock, getaccount, getaccountresource, getchainparameters, getbandwidthprices,
// getenergyprices, triggerconstantcontract, estimateenergy, triggersmartcontract, createtransaction,
// broadcasttransaction, broadcasthex, gettransactionbyid, gettransactioninfobyid; and the Sandbox's own
// /sandbox/fund {address, sun}, /sandbox/mint {token, address, amount}, /sandbox/expire {ms?} (the clock moves
// 2 minutes, or ms), /sandbox/info.
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";

const here = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Chain parameters (java-tron mainnet's, as getchainparameters names them)
// ---------------------------------------------------------------------------------------------------------------

const { port: listenPort, config } = (() => {
  try {
    return parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`tron-node: ${e.message}`);
    return process.exit(2);
  }
})();
const ENERGY_FEE = BigInt(config.energyFee ?? 420); // sun per energy
const TRANSACTION_FEE = BigInt(config.transactionFee ?? 1000); // sun per byte of bandwidth
const FREE_NET_LIMIT = config.freeNetLimit ?? 600; // free bandwidth bytes per account per day
const CREATE_ACCOUNT_FEE = 100_000n; // bandwidth burned by a transfer that creates an account (getCreateAccountFee)
const CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT = 1_000_000n; // plus this (getCreateNewAccountFeeInSystemContract)
const MAX_FEE_LIMIT = 15_000_000_000n; // getMaxFeeLimit: 15,000 TRX
const MAX_TIME_UNTIL_EXPIRATION = 24 * 3600 * 1000; // Constant.MAXIMUM_TIME_UNTIL_EXPIRATION
const TRANSACTION_MAX_BYTE_SIZE = 500 * 1024; // Constant.TRANSACTION_MAX_BYTE_SIZE
const MAX_RESULT_SIZE_IN_TX = 64; // bandwidth java-tron adds per contract for its result
const EXPIRATION_AFTER_HEAD = 60_000; // a built transaction expires 60 s after its reference block
const BLOCK_INTERVAL = 3000; // a Tron slot: an empty block is made when the head is this old
const FREE_NET_WINDOW = 24 * 3600 * 1000; // free bandwidth recovers linearly over a day
const ANVIL_GAS_LIMIT = 40_000_000n; // anvil's block gas limit: above 15,000 TRX / 420 sun
const CHAIN_PARAMETERS = [
  ["getMaintenanceTimeInterval", 21_600_000],
  ["getAccountUpgradeCost", 9_999_000_000],
  ["getCreateAccountFee", Number(CREATE_ACCOUNT_FEE)],
  ["getTransactionFee", Number(TRANSACTION_FEE)],
  ["getAssetIssueFee", 1_024_000_000],
  ["getWitnessPayPerBlock", 16_000_000],
  ["getWitnessStandbyAllowance", 115_200_000_000],
  ["getCreateNewAccountFeeInSystemContract", Number(CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT)],
  ["getCreateNewAccountBandwidthRate", 1],
  ["getAllowCreationOfContracts", 1],
  ["getRemoveThePowerOfTheGr", -1],
  ["getEnergyFee", Number(ENERGY_FEE)],
  ["getExchangeCreateFee", 1_024_000_000],
  ["getMaxCpuTimeOfOneTx", 80],
  ["getAllowUpdateAccountName"],
  ["getAllowSameTokenName", 1],
  ["getAllowDelegateResource", 1],
  ["getTotalEnergyLimit", 180_000_000_000],
  ["getAllowTvmTransferTrc10", 1],
  ["getTotalEnergyCurrentLimit", 180_000_000_000],
  ["getAllowMultiSign", 1],
  ["getAllowAdaptiveEnergy"],
  ["getUpdateAccountPermissionFee", 100_000_000],
  ["getMultiSignFee", 1_000_000],
  ["getAllowAccountStateRoot"],
  ["getAllowProtoFilterNum"],
  ["getAllowTvmConstantinople", 1],
  ["getAllowTvmSolidity059", 1],
  ["getAllowTvmIstanbul", 1],
  ["getAllowTvmLondon", 1],
  ["getAllowTvmCompatibleEvm", 1],
  ["getFreeNetLimit", FREE_NET_LIMIT],
  ["getTotalNetLimit", 43_200_000_000],
  ["getMaxFeeLimit", Number(MAX_FEE_LIMIT)],
  ["getAllowTvmShangHai", 1],
  ["getAllowTvmCancun", 1],
].map(([key, value]) => (value ? { key, value } : { key })); // java-tron leaves out a value of 0

// ---------------------------------------------------------------------------------------------------------------
// Bytes, hashes, addresses
// ---------------------------------------------------------------------------------------------------------------

/** An error of the request itself: answered as java-tron's servlets do, `{"Error": "..."}`. */
class ApiError extends Error {}

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const sha256 = (data) => createHash("sha256").update(data).digest();
const keccak = (data) => Buffer.from(keccak_256(data));
/** UTF-8 text as the hex java-tron prints a `bytes` message field in. */
const hexText = (text) => hex(Buffer.from(text, "utf8"));

function unhex(text, what = "value") {
  if (typeof text !== "string") throw new ApiError(`${what} is missing or not a string`);
  const digits = text.replace(/^0x/i, "");
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) throw new ApiError(`${what} is not hex: ${text}`);
  return Buffer.from(digits, "hex");
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58Encode(bytes) {
  let n = BigInt(`0x${hex(bytes) || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function base58Decode(text) {
  let n = 0n;
  for (const c of text) {
    const digit = BASE58.indexOf(c);
    if (digit < 0) throw new ApiError(`${text} is not Base58`);
    n = n * 58n + BigInt(digit);
  }
  let digits = n === 0n ? "" : n.toString(16);
  if (digits.length % 2) digits = `0${digits}`;
  const zeros = text.match(/^1*/)[0].length;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(digits, "hex")]);
}

/** A Tron address (21 bytes, 0x41 then the 20 bytes the EVM sees) as Base58Check, "T...". */
function toBase58(address) {
  return base58Encode(Buffer.concat([address, sha256(sha256(address)).subarray(0, 4)]));
}

function fromBase58(text) {
  const all = base58Decode(text);
  if (all.length !== 25) throw new ApiError(`${text} is not a Tron address`);
  const body = all.subarray(0, 21);
  if (!sha256(sha256(body)).subarray(0, 4).equals(all.subarray(21))) throw new ApiError(`${text}: bad checksum`);
  return body;
}

function checkAddress(bytes, text, what) {
  if (bytes.length !== 21 || bytes[0] !== 0x41) throw new ApiError(`${what} ${text} is not a Tron address`);
  return bytes;
}

/** An address of a request: Base58 when the request says `visible: true`, else 41-hex, as java-tron reads them. */
function parseAddress(text, visible, what) {
  if (typeof text !== "string" || text === "") throw new ApiError(`${what} is missing`);
  return checkAddress(visible ? fromBase58(text) : unhex(text, what), text, what);
}

/** An address of the Sandbox's own endpoints and config: either form. */
function parseAnyAddress(text, what) {
  if (typeof text !== "string") throw new ApiError(`${what} is missing`);
  return checkAddress(/^41[0-9a-fA-F]{40}$/.test(text) ? unhex(text) : fromBase58(text), text, what);
}

const showAddress = (address, visible) => (visible ? toBase58(address) : hex(address));
const evmAddress = (address) => `0x${hex(address.subarray(1))}`;
const tronAddress = (evm) => Buffer.concat([Buffer.from([0x41]), unhex(evm)]);
const isVisible = (p) => p.visible === true || p.visible === "true";

/** A whole number of a request (number or decimal string); `fallback` when absent. */
function parseInteger(value, what, fallback) {
  if (value === undefined || value === null || value === "") {
    if (fallback !== undefined) return fallback;
    throw new ApiError(`${what} is missing`);
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
  throw new ApiError(`${what} is not a whole number: ${value}`);
}

/** protobufjs gives int64 fields as Long (or number): a BigInt. */
const int64 = (v) => (v === undefined || v === null ? 0n : BigInt(v.toString()));

const quantity = (n) => `0x${BigInt(n).toString(16)}`;

// ---------------------------------------------------------------------------------------------------------------
// Protobuf: java-tron's Tron.proto, smart_contract.proto, balance_contract.proto (only what a transaction holds)
// ---------------------------------------------------------------------------------------------------------------

const root = new protobuf.Root();
protobuf.parse(
  `syntax = "proto3";
   package google.protobuf;
   message Any { string type_url = 1; bytes value = 2; }`,
  root,
  { keepCase: true },
);
protobuf.parse(
  `syntax = "proto3";
   package protocol;
   message AccountId { bytes name = 1; bytes address = 2; }
   message authority { AccountId account = 1; bytes permission_name = 2; }
   message Transaction {
     message Contract {
       enum ContractType {
         AccountCreateContract = 0; TransferContract = 1; TransferAssetContract = 2; VoteAssetContract = 3;
         VoteWitnessContract = 4; WitnessCreateContract = 5; AssetIssueContract = 6; WitnessUpdateContract = 8;
         ParticipateAssetIssueContract = 9; AccountUpdateContract = 10; FreezeBalanceContract = 11;
         UnfreezeBalanceContract = 12; WithdrawBalanceContract = 13; UnfreezeAssetContract = 14;
         UpdateAssetContract = 15; ProposalCreateContract = 16; ProposalApproveContract = 17;
         ProposalDeleteContract = 18; SetAccountIdContract = 19; CustomContract = 20; CreateSmartContract = 30;
         TriggerSmartContract = 31; GetContract = 32; UpdateSettingContract = 33; ExchangeCreateContract = 41;
         ExchangeInjectContract = 42; ExchangeWithdrawContract = 43; ExchangeTransactionContract = 44;
         UpdateEnergyLimitContract = 45; AccountPermissionUpdateContract = 46; ClearABIContract = 48;
         UpdateBrokerageContract = 49; ShieldedTransferContract = 51; MarketSellAssetContract = 52;
         MarketCancelOrderContract = 53; FreezeBalanceV2Contract = 54; UnfreezeBalanceV2Contract = 55;
         WithdrawExpireUnfreezeContract = 56; DelegateResourceContract = 57; UnDelegateResourceContract = 58;
         CancelAllUnfreezeV2Contract = 59;
       }
       ContractType type = 1;
       google.protobuf.Any parameter = 2;
       bytes provider = 3;
       bytes ContractName = 4;
       int32 Permission_id = 5;
     }
     message raw {
       bytes ref_block_bytes = 1;
       int64 ref_block_num = 3;
       bytes ref_block_hash = 4;
       int64 expiration = 8;
       repeated authority auths = 9;
       bytes data = 10;
       repeated Contract contract = 11;
       bytes scripts = 12;
       int64 timestamp = 14;
       int64 fee_limit = 18;
     }
     raw raw_data = 1;
     repeated bytes signature = 2;
     repeated bytes ret = 5; // Transaction.Result: not read (java-tron resets it), kept as bytes
   }
   // The same wire format, with raw_data kept as the exact bytes that were signed.
   message SignedEnvelope { bytes raw_data = 1; repeated bytes signature = 2; repeated bytes ret = 5; }
   message TriggerSmartContract {
     bytes owner_address = 1;
     bytes contract_address = 2;
     int64 call_value = 3;
     bytes data = 4;
     int64 call_token_value = 5;
     int64 token_id = 6;
   }
   message TransferContract { bytes owner_address = 1; bytes to_address = 2; int64 amount = 3; }`,
  root,
  { keepCase: true },
);
root.resolveAll();
const Raw = root.lookupType("protocol.Transaction.raw");
const SignedEnvelope = root.lookupType("protocol.SignedEnvelope");
const ContractType = root.lookupEnum("protocol.Transaction.Contract.ContractType");
const Parameter = {
  TriggerSmartContract: root.lookupType("protocol.TriggerSmartContract"),
  TransferContract: root.lookupType("protocol.TransferContract"),
};
const typeUrl = (name) => `type.googleapis.com/protocol.${name}`;

/** The raw_data bytes of a new transaction of one contract, referencing the head block, as java-tron builds them. */
function buildRaw(typeName, value, feeLimit) {
  const ref = head();
  const raw = {
    ref_block_bytes: refBlockBytes(ref),
    ref_block_hash: refBlockHash(ref),
    expiration: ref.timestamp + EXPIRATION_AFTER_HEAD,
    contract: [
      {
        type: ContractType.values[typeName],
        parameter: { type_url: typeUrl(typeName), value: Parameter[typeName].encode(value).finish() },
      },
    ],
    timestamp: now(),
  };
  if (feeLimit) raw.fee_limit = feeLimit.toString(); // protobufjs writes a set field even when 0
  return Buffer.from(Raw.encode(raw).finish());
}

/** A contract's parameter decoded: {typeName, value} or a refusal. */
function decodeContract(contract) {
  const typeName = ContractType.valuesById[contract.type] ?? `ContractType ${contract.type}`;
  const message = Parameter[typeName];
  if (!message) {
    throw new Refusal("OTHER_ERROR", `Error: the Sandbox's Tron chain runs only TransferContract and TriggerSmartContract, not ${typeName}`);
  }
  const url = contract.parameter?.type_url ?? "";
  if (url !== typeUrl(typeName)) {
    throw new Refusal("CONTRACT_VALIDATE_ERROR", `Contract validate error : contract type error, expected type [${typeName}], real type [${url}]`);
  }
  let value;
  try {
    value = message.decode(contract.parameter.value);
  } catch (e) {
    throw new Refusal("CONTRACT_VALIDATE_ERROR", `Contract validate error : ${typeName} does not decode: ${e.message}`);
  }
  return { typeName, value };
}

/** A contract as java-tron's JSON shows it. */
function contractJson(contract, visible) {
  const typeName = ContractType.valuesById[contract.type] ?? String(contract.type);
  const value = {};
  try {
    const decoded = decodeContract(contract).value;
    if (typeName === "TriggerSmartContract") {
      if (decoded.data.length) value.data = hex(decoded.data);
      value.owner_address = showAddress(decoded.owner_address, visible);
      value.contract_address = showAddress(decoded.contract_address, visible);
      if (int64(decoded.call_value)) value.call_value = int64(decoded.call_value);
      if (int64(decoded.call_token_value)) value.call_token_value = int64(decoded.call_token_value);
      if (int64(decoded.token_id)) value.token_id = int64(decoded.token_id);
    } else {
      if (int64(decoded.amount)) value.amount = int64(decoded.amount);
      value.owner_address = showAddress(decoded.owner_address, visible);
      value.to_address = showAddress(decoded.to_address, visible);
    }
  } catch {
    // a contract the Sandbox does not run (never in a block): its value is not shown
  }
  const json = { parameter: { value, type_url: contract.parameter?.type_url ?? "" }, type: typeName };
  if (contract.Permission_id) json.Permission_id = contract.Permission_id;
  return json;
}

/** raw_data as java-tron's JSON shows it (fields of value 0 left out, bytes as hex). */
function rawJson(raw, visible) {
  const json = { contract: raw.contract.map((c) => contractJson(c, visible)) };
  if (raw.ref_block_bytes.length) json.ref_block_bytes = hex(raw.ref_block_bytes);
  if (int64(raw.ref_block_num)) json.ref_block_num = int64(raw.ref_block_num);
  if (raw.ref_block_hash.length) json.ref_block_hash = hex(raw.ref_block_hash);
  if (int64(raw.expiration)) json.expiration = int64(raw.expiration);
  if (raw.data.length) json.data = hex(raw.data);
  if (int64(raw.fee_limit)) json.fee_limit = int64(raw.fee_limit);
  if (int64(raw.timestamp)) json.timestamp = int64(raw.timestamp);
  return json;
}

/** An unsigned transaction as java-tron's builders answer it. */
function unsignedJson(rawBytes, visible) {
  return {
    visible,
    txID: hex(sha256(rawBytes)),
    raw_data: rawJson(Raw.decode(rawBytes), visible),
    raw_data_hex: hex(rawBytes),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The chain's state: its clock, its blocks, its accounts, its transactions
// ---------------------------------------------------------------------------------------------------------------

let clockOffset = 0;
const now = () => Date.now() + clockOffset;
const blocks = []; // {number, id (Buffer 32), parentHash (Buffer 32), timestamp, txids: [hex]}
const recentBlocks = new Map(); // ref_block_bytes (hex) -> ref_block_hash (hex): java-tron's recent-block store
const transactions = new Map(); // txid -> record of an accepted transaction
const accounts = new Map(); // 41-hex -> {createTime, latestOperation, freeNetUsed, freeNetTime, isContract}
const WITNESS = Buffer.concat([Buffer.from([0x41]), sha256("gateway-desk sandbox tron witness").subarray(0, 20)]);

const head = () => blocks[blocks.length - 1];
const num8 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
/** TaPoS: bytes 6..8 of the block number (8 bytes big-endian) and bytes 8..16 of the block id. */
const refBlockBytes = (block) => num8(block.number).subarray(6, 8);
const refBlockHash = (block) => block.id.subarray(8, 16);

function addBlock(block) {
  blocks.push(block);
  recentBlocks.set(hex(refBlockBytes(block)), hex(refBlockHash(block)));
  return block;
}

/** A new block on the head: its id is its number (8 bytes) then 24 bytes of sha256 of its contents. */
function newBlock(txids) {
  const parent = head();
  const number = parent.number + 1;
  const timestamp = Math.max(now(), parent.timestamp + 1);
  const txidBytes = txids.map((t) => Buffer.from(t, "hex"));
  const digest = sha256(Buffer.concat([parent.id, num8(number), num8(timestamp), ...txidBytes]));
  return addBlock({ number, id: Buffer.concat([num8(number), digest.subarray(8)]), parentHash: parent.id, timestamp, txids });
}

/** Time moves: an empty block when the head is a slot old, as Tron's witnesses would have made one. */
function tick() {
  if (now() - head().timestamp >= BLOCK_INTERVAL) newBlock([]);
}

// Block 0: a fixed id of this network's own (sha256 of a name, its number bytes 0), so a client can tell it from
// Tron's mainnet (block 0 00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc) before it signs.
const GENESIS_ID = Buffer.concat([Buffer.alloc(8), sha256("gateway-desk sandbox tron").subarray(8)]);
addBlock({ number: 0, id: GENESIS_ID, parentHash: Buffer.alloc(32), timestamp: Date.now(), txids: [] });
// And block 1 at once: a head of number 0 has no "number" in java-tron's JSON, which clients stumble on.
newBlock([]);

function blockJson(block, visible, detail = true) {
  const raw = {};
  if (block.number) raw.number = block.number;
  const txidBytes = block.txids.map((t) => Buffer.from(t, "hex"));
  raw.txTrieRoot = hex(txidBytes.length ? sha256(Buffer.concat(txidBytes)) : Buffer.alloc(32));
  raw.witness_address = showAddress(WITNESS, visible);
  raw.parentHash = hex(block.parentHash);
  raw.version = 32;
  raw.timestamp = block.timestamp;
  const json = { blockID: hex(block.id), block_header: { raw_data: raw } };
  if (detail && block.txids.length) json.transactions = block.txids.map((t) => transactionJson(transactions.get(t), visible));
  return json;
}

function findBlock(idOrNum) {
  const text = String(idOrNum);
  if (/^\d+$/.test(text)) return blocks[Number(text)];
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    const number = Number(BigInt(`0x${text.slice(0, 16)}`));
    const block = blocks[number];
    return block && hex(block.id) === text.toLowerCase() ? block : undefined;
  }
  throw new ApiError(`${text} is neither a block number nor a block id`);
}

// An account exists once it was funded (java-tron: once it received TRX); an address anvil holds TRX for counts too.
function account(address, balance) {
  const key = hex(address);
  let acct = accounts.get(key);
  if (!acct && balance > 0n) {
    acct = { createTime: now(), freeNetUsed: 0, freeNetTime: 0 };
    accounts.set(key, acct);
  }
  return acct;
}

function activate(address, extra = {}) {
  const key = hex(address);
  if (!accounts.has(key)) accounts.set(key, { createTime: now(), freeNetUsed: 0, freeNetTime: 0, ...extra });
  return accounts.get(key);
}

/** Free bandwidth used, recovering linearly over a day (java-tron's resource window). */
function freeNetUsed(acct, t = now()) {
  const elapsed = t - acct.freeNetTime;
  if (!acct.freeNetUsed || elapsed >= FREE_NET_WINDOW) return 0;
  return Math.round((acct.freeNetUsed * (FREE_NET_WINDOW - elapsed)) / FREE_NET_WINDOW);
}

// ---------------------------------------------------------------------------------------------------------------
// anvil: the EVM behind the chain
// ---------------------------------------------------------------------------------------------------------------

let anvilUrl;
let devAccount;
let rpcId = 0;

class RpcError extends Error {
  constructor(method, error) {
    super(`anvil answered ${method} with ${JSON.stringify(error)}`);
    this.error = error;
  }
}

async function rpc(method, params = []) {
  const response = await fetch(anvilUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await response.json();
  if (body.error) throw new RpcError(method, body.error);
  return body.result;
}

const balanceOf = async (address) => BigInt(await rpc("eth_getBalance", [evmAddress(address), "latest"]));
const setBalance = (address, sun) => rpc("anvil_setBalance", [evmAddress(address), quantity(sun < 0n ? 0n : sun)]);
const hasCode = async (address) => (await rpc("eth_getCode", [evmAddress(address), "latest"])) !== "0x";

async function receipt(hash) {
  for (let i = 0; i < 500; i++) {
    const r = await rpc("eth_getTransactionReceipt", [hash]);
    if (r) return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`anvil mined no receipt for ${hash}`);
}

/** A transaction from anvil's development account (the Sandbox's own bookkeeping: initialize, mint). */
async function sendAsDev(to, data) {
  const hash = await rpc("eth_sendTransaction", [{ from: devAccount, to, data, gasPrice: "0x0" }]);
  const r = await receipt(hash);
  if (r.status !== "0x1") throw new Error(`${to} reverted the Sandbox's call ${data.slice(0, 10)}`);
  return r;
}

/** eth_call: {ok, data} or {ok: false, revert, data, message}. */
async function simulate(call) {
  try {
    return { ok: true, data: await rpc("eth_call", [call, "latest"]) };
  } catch (e) {
    if (!(e instanceof RpcError)) throw e;
    const revert = e.error.code === 3 || /revert/i.test(e.error.message ?? "");
    return { ok: false, revert, data: typeof e.error.data === "string" ? e.error.data : "0x", message: e.error.message ?? "" };
  }
}

/** The logs `call` emits when run on the current state, nothing kept (the EVM's eth_simulateV1). */
async function runLogs(call) {
  const blocks = await rpc("eth_simulateV1", [{ blockStateCalls: [{ calls: [call] }], validation: false }, "latest"]);
  const logs = blocks?.[0]?.calls?.[0]?.logs ?? [];
  const bare = (h) => String(h).replace(/^0x/, "");
  return logs.map((l) => ({ address: bare(l.address), topics: l.topics.map(bare), data: bare(l.data) }));
}

// Minimal ABI encoding for the Sandbox's own calls.
const word = (n) => BigInt(n).toString(16).padStart(64, "0");
const selector = (signature) => hex(keccak(Buffer.from(signature))).slice(0, 8);
function abiString(text) {
  const bytes = Buffer.from(text, "utf8");
  return word(bytes.length) + hex(bytes).padEnd(Math.ceil(bytes.length / 32) * 64, "0");
}
function initializeCall(name, symbol, decimals, resetToZero) {
  const n = abiString(name);
  const s = abiString(symbol);
  const head = word(128) + word(128 + n.length / 2) + word(decimals) + word(resetToZero ? 1 : 0);
  return `0x${selector("initialize(string,string,uint8,bool)")}${head}${n}${s}`;
}

function anvilBinary() {
  if (process.env.GATEWAY_ANVIL) return process.env.GATEWAY_ANVIL;
  const modules = join(here, "node_modules", "@foundry-rs");
  for (const entry of existsSync(modules) ? readdirSync(modules) : []) {
    const path = join(modules, entry, "bin", "anvil");
    if (existsSync(path)) return path;
  }
  const wrapper = join(here, "node_modules", ".bin", "anvil");
  if (existsSync(wrapper)) return wrapper;
  throw new Error("no anvil binary: run `npm install` in chains/, or set GATEWAY_ANVIL");
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts anvil on a free loopback port; it ends with this process (see below), and waits until it answers. */
async function startAnvil() {
  const binary = anvilBinary();
  const port = await freePort();
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", "31337", "--silent", "--accounts", "1",
    // Gas costs nothing on the EVM: the chain burns Tron's fees itself, from the native balance (sun).
    "--base-fee", "0", "--gas-price", "0", "--gas-limit", ANVIL_GAS_LIMIT.toString()];
  // On Unix anvil runs under a small shell holding this process's pipe: when this process ends, however it ends
  // (even SIGKILL), the pipe closes and the shell stops anvil.
  const child = process.platform === "win32"
    ? spawn(binary, args, { stdio: ["ignore", "ignore", "inherit"] })
    : spawn("sh", ["-c", '"$0" "$@" & node=$!; read _; kill "$node" 2>/dev/null; wait "$node"', binary, ...args], {
        stdio: ["pipe", "ignore", "inherit"],
      });
  let exited = false;
  child.on("exit", () => (exited = true));
  process.on("exit", () => {
    if (process.platform === "win32") child.kill();
  });
  anvilUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`anvil (${binary}) exited at start`);
    try {
      await rpc("eth_chainId");
      return;
    } catch (e) {
      if (Date.now() - started > 30_000) throw new Error(`anvil did not answer in 30 s: ${e.message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The Sandbox's contracts: the gateway and the test tokens
// ---------------------------------------------------------------------------------------------------------------

const compiled = JSON.parse(readFileSync(join(here, "compiled", "contracts.json"), "utf8")).contracts;
// Defaults: the gateway at 0x41 || "gateway-sim-contract" (gateway-sim's quote::gateway_contract("tron")), and USDT.
const DEFAULT_TOKENS = [{ address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", symbol: "USDT", name: "Tether USD", decimals: 6 }];
let GATEWAY;
let TOKENS;
// The production shape's entry contract (an AllowanceHolder at the address the real service pins on Tron) and a
// stranger's contract for its tampers; both optional.
let ENTRY = null;
let THIEF = null;
try {
  GATEWAY = config.gateway
    ? parseAnyAddress(config.gateway, "gateway")
    : Buffer.concat([Buffer.from([0x41]), Buffer.from("gateway-sim-contract")]);
  ENTRY = config.entry ? parseAnyAddress(config.entry, "entry") : null;
  THIEF = config.thief ? parseAnyAddress(config.thief, "thief") : null;
  TOKENS = (config.tokens ?? DEFAULT_TOKENS).map((t) => {
    if (typeof t.name !== "string" || typeof t.symbol !== "string" || !Number.isInteger(t.decimals)) {
      throw new ApiError(`token ${t.address}: name, symbol and decimals are needed`);
    }
    return { ...t, address: parseAnyAddress(t.address, "token address") };
  });
} catch (e) {
  console.error(`tron-node: config: ${e.message}`);
  process.exit(2);
}

async function placeContracts() {
  devAccount = (await rpc("eth_accounts"))[0];
  await rpc("anvil_setCode", [evmAddress(GATEWAY), compiled.GatewaySim.runtimeBytecode]);
  activate(GATEWAY, { isContract: true });
  if (ENTRY) {
    await rpc("anvil_setCode", [evmAddress(ENTRY), compiled.SandboxAllowanceHolder.runtimeBytecode]);
    activate(ENTRY, { isContract: true });
  }
  if (THIEF) {
    await rpc("anvil_setCode", [evmAddress(THIEF), compiled.SandboxThief.runtimeBytecode]);
    activate(THIEF, { isContract: true });
  }
  for (const token of TOKENS) {
    await rpc("anvil_setCode", [evmAddress(token.address), compiled.TestToken.runtimeBytecode]);
    await sendAsDev(evmAddress(token.address), initializeCall(token.name, token.symbol, token.decimals, false));
    activate(token.address, { isContract: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Broadcast: validation as java-tron's Wallet.broadcastTransaction and Manager.processTransaction do, then execution
// ---------------------------------------------------------------------------------------------------------------

/** A transaction refused before it reaches a block: java-tron's GrpcAPI.Return code and message. */
class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Validates and executes one signed transaction: `rawBytes` are its raw_data exactly as signed, `signatures` its
 * signatures, `size` the bytes it takes on the chain (the Transaction without its results). Returns its txid, or
 * throws a Refusal (nothing changed).
 */
async function processTransaction(rawBytes, signatures, size) {
  const txid = hex(sha256(rawBytes));
  try {
    return await validateAndExecute(txid, rawBytes, signatures, size);
  } catch (e) {
    if (e instanceof Refusal) e.txid = txid;
    throw e;
  }
}

const refuse = (code, message) => {
  throw new Refusal(code, message);
};

async function validateAndExecute(txid, rawBytes, signatures, size) {
  for (const sig of signatures) {
    if (sig.length !== 65) refuse("SIGERROR", `Validate signature error: Signature size is ${sig.length}`);
  }
  if (transactions.has(txid)) refuse("DUP_TRANSACTION_ERROR", "Dup transaction.");
  let raw;
  try {
    raw = Raw.decode(rawBytes);
  } catch (e) {
    refuse("OTHER_ERROR", `Error: raw_data is not a protocol.Transaction.raw: ${e.message}`);
  }

  // TaPoS: the reference block must be one of this chain's recent blocks.
  if (recentBlocks.get(hex(raw.ref_block_bytes)) !== hex(raw.ref_block_hash) || raw.ref_block_hash.length !== 8) {
    refuse("TAPOS_ERROR", "Tapos check error.");
  }
  if (size > TRANSACTION_MAX_BYTE_SIZE) refuse("TOO_BIG_TRANSACTION_ERROR", `Transaction size is too big: ${size} bytes`);
  const expiration = int64(raw.expiration);
  const t = now();
  if (expiration <= BigInt(t) || expiration > BigInt(t + MAX_TIME_UNTIL_EXPIRATION)) {
    refuse("TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
  }
  if (raw.contract.length !== 1) {
    const actual = raw.contract.length;
    refuse(
      "CONTRACT_VALIDATE_ERROR",
      `Contract validate error : tx ${txid} contract size should be exactly 1, this is extend feature ,actual :${actual}`,
    );
  }
  const contract = raw.contract[0];
  const { typeName, value } = decodeContract(contract);
  const owner = Buffer.from(value.owner_address);
  if (owner.length !== 21 || owner[0] !== 0x41) refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : Invalid ownerAddress");

  // Signature: the owner permission (one key, threshold 1) of the owner.
  if (contract.Permission_id) refuse("SIGERROR", `Validate signature error: permission ${contract.Permission_id} isn't exit`);
  if (signatures.length === 0) refuse("SIGERROR", "Validate signature error: miss sig or contract");
  if (signatures.length > 1) {
    refuse("SIGERROR", `Validate signature error: Signature count is ${signatures.length} more than key counts of permission : 1`);
  }
  const signer = recoverSigner(rawBytes, signatures[0]);
  if (!signer) refuse("SIGERROR", "Validate signature error: the signature does not recover to a public key");
  if (!signer.equals(owner)) {
    refuse("SIGERROR", `Validate signature error: ${txid} is signed by ${toBase58(signer)} but it is not contained of permission.`);
  }

  // Bandwidth (java-tron's BandwidthProcessor), then the contract's own validation; nothing is changed until all pass.
  const balance = await balanceOf(owner);
  const acct = account(owner, balance);
  if (!acct) refuse("CONTRACT_VALIDATE_ERROR", `Contract validate error : account [${toBase58(owner)}] does not exist`);
  const bytes = size + MAX_RESULT_SIZE_IN_TX;
  let netUsage = 0n;
  let netFee = 0n;
  let contractFee = 0n;
  let usesFreeNet = false;
  const to = checkTo(typeName === "TransferContract" ? value.to_address : value.contract_address);
  // A transfer to an account that does not exist yet creates it: a fixed bandwidth fee, and a creation fee.
  const createsAccount = typeName === "TransferContract" && !account(to, await balanceOf(to));
  if (createsAccount) {
    netFee = CREATE_ACCOUNT_FEE;
    contractFee = CREATE_NEW_ACCOUNT_FEE_IN_SYSTEM_CONTRACT;
  } else if (bytes <= FREE_NET_LIMIT - freeNetUsed(acct, t)) {
    netUsage = BigInt(bytes);
    usesFreeNet = true;
  } else {
    netFee = BigInt(bytes) * TRANSACTION_FEE;
  }
  if (balance < netFee) refuse("BANDWITH_ERROR", "Account resource insufficient error.");

  const record = { txid, raw, rawBytes, signatures, owner, typeName };
  if (typeName === "TransferContract") {
    const amount = int64(value.amount);
    if (amount <= 0n) refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : Amount must be greater than 0.");
    if (to.equals(owner)) refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : Cannot transfer TRX to yourself.");
    if (await hasCode(to)) refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : Cannot transfer TRX to a smartContract.");
    if (balance - netFee < amount + contractFee) {
      refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : Validate TransferContract error, balance is not sufficient.");
    }
    // Execute: TRX moves on anvil's native balances.
    await setBalance(owner, balance - netFee - contractFee - amount);
    await setBalance(to, (await balanceOf(to)) + amount);
    activate(to);
    Object.assign(record, { contractRet: "SUCCESS", contractResult: Buffer.alloc(0), logs: [], energy: 0n, energyFee: 0n });
  } else {
    const contractAddress = to;
    const feeLimit = int64(raw.fee_limit);
    const callValue = int64(value.call_value);
    if (feeLimit < 0n || feeLimit > MAX_FEE_LIMIT) {
      refuse("CONTRACT_VALIDATE_ERROR", `Contract validate error : feeLimit must be >= 0 and <= ${MAX_FEE_LIMIT}`);
    }
    if (int64(value.call_token_value) || int64(value.token_id)) {
      refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : the Sandbox's Tron chain has no TRC-10 tokens");
    }
    if (!(await hasCode(contractAddress))) {
      refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : No contract or not a valid smart contract");
    }
    if (callValue < 0n || balance - netFee < callValue) {
      refuse("CONTRACT_VALIDATE_ERROR", "Contract validate error : Validate InternalTransfer error, balance is not sufficient.");
    }
    // The bandwidth is burned first; the energy limit is what fee_limit and the rest of the balance pay for.
    await setBalance(owner, balance - netFee);
    let energyLimit = (balance - netFee - callValue) / ENERGY_FEE;
    if (feeLimit / ENERGY_FEE < energyLimit) energyLimit = feeLimit / ENERGY_FEE;
    if (energyLimit > ANVIL_GAS_LIMIT) energyLimit = ANVIL_GAS_LIMIT;
    try {
      Object.assign(record, await execute(owner, contractAddress, Buffer.from(value.data), callValue, energyLimit));
    } catch (e) {
      await setBalance(owner, balance); // anvil failed us (not the call): the transaction is not taken
      throw e;
    }
    record.contractAddress = contractAddress;
    record.energyFee = record.energy * ENERGY_FEE;
    await setBalance(owner, (await balanceOf(owner)) - record.energyFee);
  }
  if (usesFreeNet) {
    acct.freeNetUsed = freeNetUsed(acct, t) + bytes;
    acct.freeNetTime = t;
  }
  acct.latestOperation = t;
  Object.assign(record, { netUsage, netFee, contractFee, fee: record.energyFee + netFee + contractFee });
  const block = newBlock([txid]);
  Object.assign(record, { blockNumber: block.number, blockTimeStamp: block.timestamp });
  transactions.set(txid, record);
  return txid;
}

function checkTo(bytes) {
  const address = Buffer.from(bytes);
  if (address.length !== 21 || address[0] !== 0x41) {
    throw new Refusal("CONTRACT_VALIDATE_ERROR", "Contract validate error : Invalid address");
  }
  return address;
}

/** The address that signed sha256(rawBytes): 65 bytes r || s || v, v in {0, 1, 27, 28}; null if none. */
function recoverSigner(rawBytes, sig) {
  let v = sig[64];
  if (v >= 27) v -= 27;
  if (v !== 0 && v !== 1) return null;
  try {
    const point = secp256k1.Signature.fromCompact(sig.subarray(0, 64)).addRecoveryBit(v).recoverPublicKey(sha256(rawBytes));
    const publicKey = point.toRawBytes(false).subarray(1);
    return Buffer.concat([Buffer.from([0x41]), keccak(publicKey).subarray(12)]);
  } catch {
    return null;
  }
}

/**
 * Runs a TriggerSmartContract on anvil as the owner (impersonated), with `energyLimit` as the gas limit: SUCCESS,
 * REVERT (state rolled back, energy used charged) or OUT_OF_ENERGY (state rolled back, the whole limit charged).
 */
async function execute(owner, contractAddress, data, callValue, energyLimit) {
  const from = evmAddress(owner);
  const call = {
    from,
    to: evmAddress(contractAddress),
    data: `0x${hex(data)}`,
    value: quantity(callValue),
    gas: quantity(energyLimit),
    gasPrice: "0x0",
  };
  const outOfEnergy = (message) => ({
    contractRet: "OUT_OF_ENERGY",
    energy: energyLimit,
    contractResult: Buffer.alloc(0),
    logs: [],
    resMessage: `Not enough energy: the call needs more than its energy limit ${energyLimit} (${message})`,
  });
  // Simulated first, on the same state: the return or revert data java-tron reports as contractResult.
  const simulation = await simulate(call);
  await rpc("anvil_impersonateAccount", [from]);
  let hash;
  try {
    hash = await rpc("eth_sendTransaction", [call]);
  } catch (e) {
    // Below the EVM's intrinsic gas (21,000 plus calldata): nothing runs, the whole limit is charged.
    if (e instanceof RpcError && /gas/i.test(e.error.message ?? "")) return outOfEnergy(e.error.message);
    throw e;
  } finally {
    await rpc("anvil_stopImpersonatingAccount", [from]);
  }
  const r = await receipt(hash);
  const gasUsed = BigInt(r.gasUsed);
  if (r.status === "0x1") {
    const logs = r.logs.map((log) => ({
      address: log.address.slice(2).toLowerCase(),
      topics: log.topics.map((topic) => topic.slice(2)),
      data: log.data.slice(2),
    }));
    return { contractRet: "SUCCESS", energy: gasUsed, contractResult: unhex(simulation.ok ? simulation.data : "0x"), logs, evmHash: hash };
  }
  if (gasUsed >= energyLimit || (!simulation.ok && !simulation.revert)) {
    return { ...outOfEnergy(simulation.message || "out of gas"), evmHash: hash };
  }
  return {
    contractRet: "REVERT",
    energy: gasUsed,
    contractResult: unhex(simulation.ok ? "0x" : simulation.data),
    logs: [],
    resMessage: "REVERT opcode executed",
    evmHash: hash,
  };
}

/** The bytes a signed transaction takes (java-tron: the Transaction without its results, serialized). */
function signedSize(rawBytes, signatures) {
  const field = (length) => 1 + varintLength(length) + length;
  return field(rawBytes.length) + signatures.reduce((sum, s) => sum + field(s.length), 0);
}
function varintLength(n) {
  let length = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

function transactionJson(record, visible) {
  return {
    ret: [{ contractRet: record.contractRet }],
    signature: record.signatures.map(hex),
    txID: record.txid,
    raw_data: rawJson(record.raw, visible),
    raw_data_hex: hex(record.rawBytes),
    visible,
  };
}

function transactionInfoJson(record, visible) {
  const json = { id: record.txid };
  if (record.fee) json.fee = record.fee;
  json.blockNumber = record.blockNumber;
  json.blockTimeStamp = record.blockTimeStamp;
  json.contractResult = [hex(record.contractResult)];
  if (record.contractAddress) json.contract_address = showAddress(record.contractAddress, visible);
  const receipt = {};
  if (record.energyFee) receipt.energy_fee = record.energyFee;
  if (record.energy) receipt.energy_usage_total = record.energy;
  if (record.netUsage) receipt.net_usage = record.netUsage;
  if (record.netFee) receipt.net_fee = record.netFee;
  if (record.typeName === "TriggerSmartContract") receipt.result = record.contractRet; // DEFAULT is left out
  json.receipt = receipt;
  if (record.logs.length) {
    json.log = record.logs.map((log) => (log.data ? log : { address: log.address, topics: log.topics }));
  }
  if (record.contractRet !== "SUCCESS") {
    json.result = "FAILED";
    json.resMessage = hexText(record.resMessage);
  }
  return json;
}

// ---------------------------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------------------------

/** The call of a trigger request: owner, contract, calldata (function_selector + parameter, or data), call_value. */
function parseTrigger(p, visible) {
  const contract = parseAddress(p.contract_address, visible, "contract_address");
  const owner = p.owner_address
    ? parseAddress(p.owner_address, visible, "owner_address")
    : Buffer.concat([Buffer.from([0x41]), Buffer.alloc(20)]); // a constant call may name no caller
  let data;
  if (typeof p.function_selector === "string" && p.function_selector !== "") {
    data = Buffer.concat([keccak(Buffer.from(p.function_selector)).subarray(0, 4), unhex(p.parameter ?? "", "parameter")]);
  } else {
    data = unhex(p.data ?? "", "data");
  }
  const callValue = parseInteger(p.call_value, "call_value", 0n);
  return { contract, owner, data, callValue };
}

/** The EVM call of a trigger request (no gas limit: anvil's block gas limit). */
const evmCall = (call) => ({
  from: evmAddress(call.owner),
  to: evmAddress(call.contract),
  data: `0x${hex(call.data)}`,
  value: quantity(call.callValue),
  gasPrice: "0x0",
});
const failure = (simulation) => (simulation.revert ? "REVERT opcode executed" : simulation.message);
const NO_CONTRACT = { result: { code: "CONTRACT_VALIDATE_ERROR", message: hexText("Smart contract is not exist.") } };

function triggerValue({ owner, contract, data, callValue }) {
  const value = { owner_address: owner, contract_address: contract };
  if (callValue) value.call_value = callValue.toString();
  if (data.length) value.data = data;
  return value;
}

async function broadcastResult(run) {
  try {
    return { result: true, txid: await run() };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    const answer = { result: false, code: e.code };
    if (e.txid) answer.txid = e.txid;
    answer.message = hexText(e.message);
    return answer;
  }
}

const routes = {
  "/wallet/getnowblock": (p) => blockJson(head(), isVisible(p)),
  "/wallet/getblockbynum": (p) => {
    const block = blocks[Number(parseInteger(p.num, "num"))];
    return block ? blockJson(block, isVisible(p)) : {};
  },
  "/wallet/getblockbyid": (p) => {
    const block = findBlock(p.value ?? "");
    return block ? blockJson(block, isVisible(p)) : {};
  },
  "/wallet/getblock": (p) => {
    const block = p.id_or_num === undefined || p.id_or_num === "" ? head() : findBlock(p.id_or_num);
    return block ? blockJson(block, isVisible(p), p.detail === true || p.detail === "true") : {};
  },

  "/wallet/getaccount": async (p) => {
    const visible = isVisible(p);
    const address = parseAddress(p.address, visible, "address");
    const balance = await balanceOf(address);
    const acct = account(address, balance);
    if (!acct) return {};
    const json = { address: showAddress(address, visible) };
    if (balance) json.balance = balance;
    json.create_time = acct.createTime;
    if (acct.latestOperation) json.latest_opration_time = acct.latestOperation; // sic, java-tron's field name
    const used = freeNetUsed(acct);
    if (used) {
      json.free_net_usage = used;
      json.latest_consume_free_time = acct.freeNetTime;
    }
    if (acct.isContract) json.type = "Contract";
    json.owner_permission = { permission_name: "owner", threshold: 1, keys: [{ address: showAddress(address, visible), weight: 1 }] };
    return json;
  },
  "/wallet/getaccountresource": async (p) => {
    const address = parseAddress(p.address, isVisible(p), "address");
    const acct = account(address, await balanceOf(address));
    if (!acct) return {};
    const json = {};
    const used = freeNetUsed(acct);
    if (used) json.freeNetUsed = used;
    json.freeNetLimit = FREE_NET_LIMIT;
    // NetLimit and EnergyLimit are 0 (nobody stakes in the Sandbox), so java-tron's JSON leaves them out.
    json.TotalNetLimit = 43_200_000_000;
    json.TotalNetWeight = 26_000_000_000;
    json.TotalEnergyLimit = 180_000_000_000;
    json.TotalEnergyWeight = 19_000_000_000;
    return json;
  },
  "/wallet/getchainparameters": () => ({ chainParameter: CHAIN_PARAMETERS }),
  "/wallet/getbandwidthprices": () => ({ prices: `0:${TRANSACTION_FEE}` }),
  "/wallet/getenergyprices": () => ({ prices: `0:${ENERGY_FEE}` }),

  "/wallet/triggerconstantcontract": async (p) => {
    const visible = isVisible(p);
    const call = parseTrigger(p, visible);
    if (!(await hasCode(call.contract))) return NO_CONTRACT;
    const simulation = await simulate(evmCall(call));
    const transaction = unsignedJson(buildRaw("TriggerSmartContract", triggerValue(call)), visible);
    if (!simulation.ok) {
      return {
        result: { result: true, message: hexText(failure(simulation)) },
        constant_result: [simulation.data.slice(2)],
        transaction: { ret: [{ ret: "FAILED" }], ...transaction },
      };
    }
    return {
      result: { result: true },
      energy_used: BigInt(await rpc("eth_estimateGas", [evmCall(call)])),
      constant_result: [simulation.data.slice(2)],
      // As java-tron's TransactionExtention: the run's event logs (address and topics as hex without 0x).
      logs: await runLogs(evmCall(call)),
      transaction: { ret: [{}], ...transaction },
    };
  },
  "/wallet/estimateenergy": async (p) => {
    const call = parseTrigger(p, isVisible(p));
    if (!(await hasCode(call.contract))) return NO_CONTRACT;
    const simulation = await simulate(evmCall(call));
    if (!simulation.ok) return { result: { code: "CONTRACT_EXE_ERROR", message: hexText(failure(simulation)) } };
    return { result: { result: true }, energy_required: BigInt(await rpc("eth_estimateGas", [evmCall(call)])) };
  },
  "/wallet/triggersmartcontract": async (p) => {
    const visible = isVisible(p);
    const call = parseTrigger(p, visible);
    if (!p.owner_address) throw new ApiError("owner_address is missing");
    if (!(await hasCode(call.contract))) return NO_CONTRACT;
    const raw = buildRaw("TriggerSmartContract", triggerValue(call), parseInteger(p.fee_limit, "fee_limit", 0n));
    return { result: { result: true }, transaction: unsignedJson(raw, visible) };
  },
  "/wallet/createtransaction": async (p) => {
    const visible = isVisible(p);
    const owner = parseAddress(p.owner_address, visible, "owner_address");
    const to = parseAddress(p.to_address, visible, "to_address");
    const amount = parseInteger(p.amount, "amount");
    if (amount <= 0n) throw new ApiError("Amount must be greater than 0.");
    if (owner.equals(to)) throw new ApiError("Cannot transfer TRX to yourself.");
    return unsignedJson(buildRaw("TransferContract", { owner_address: owner, to_address: to, amount: amount.toString() }), visible);
  },

  // A signed transaction as JSON: raw_data_hex is what was signed and what runs; its raw_data JSON is not read.
  "/wallet/broadcasttransaction": (p) => {
    const rawBytes = unhex(p.raw_data_hex, "raw_data_hex");
    if (!Array.isArray(p.signature)) throw new ApiError("signature is missing (a list of hex signatures)");
    const signatures = p.signature.map((s) => unhex(s, "signature"));
    return broadcastResult(() => processTransaction(rawBytes, signatures, signedSize(rawBytes, signatures)));
  },
  // A signed transaction as the hex of its whole protobuf. Answered as java-tron's BroadcastHexServlet does: with
  // code "SUCCESS" on success, the message as text (not hex), and the transaction as a JSON string.
  "/wallet/broadcasthex": async (p) => {
    const bytes = unhex(p.transaction, "transaction");
    let envelope;
    try {
      envelope = SignedEnvelope.decode(bytes);
    } catch (e) {
      throw new ApiError(`transaction is not a protocol.Transaction: ${e.message}`);
    }
    const rawBytes = Buffer.from(envelope.raw_data);
    const signatures = envelope.signature.map((s) => Buffer.from(s));
    const outcome = await broadcastResult(() => processTransaction(rawBytes, signatures, signedSize(rawBytes, signatures)));
    let transaction = "";
    try {
      const raw_data = rawJson(Raw.decode(rawBytes), true);
      transaction = toJson({ signature: signatures.map(hex), txID: hex(sha256(rawBytes)), raw_data, raw_data_hex: hex(rawBytes) });
    } catch {
      // raw_data that does not decode: its refusal says so
    }
    return {
      result: outcome.result,
      code: outcome.code ?? "SUCCESS",
      message: outcome.message ? Buffer.from(outcome.message, "hex").toString("utf8") : "",
      transaction,
      txid: hex(sha256(rawBytes)),
    };
  },

  "/wallet/gettransactionbyid": (p) => {
    const record = transactions.get(String(p.value ?? "").toLowerCase());
    return record ? transactionJson(record, isVisible(p)) : {};
  },
  "/wallet/gettransactioninfobyid": (p) => {
    const record = transactions.get(String(p.value ?? "").toLowerCase());
    return record ? transactionInfoJson(record, isVisible(p)) : {};
  },

  // The Sandbox's own: test money and time.
  "/sandbox/fund": async (p) => {
    const address = parseAnyAddress(p.address, "address");
    const sun = parseInteger(p.sun, "sun");
    if (sun < 0n) throw new ApiError("sun must not be negative");
    await setBalance(address, sun);
    activate(address);
    return { address: toBase58(address), balance: sun };
  },
  "/sandbox/mint": async (p) => {
    const token = parseAnyAddress(p.token, "token");
    const address = parseAnyAddress(p.address, "address");
    const amount = parseInteger(p.amount, "amount");
    if (!(await hasCode(token))) throw new ApiError(`no token contract at ${toBase58(token)}`);
    const holder = word(BigInt(evmAddress(address)));
    await sendAsDev(evmAddress(token), `0x${selector("mint(address,uint256)")}${holder}${word(amount)}`);
    const balanceCall = { to: evmAddress(token), data: `0x${selector("balanceOf(address)")}${holder}` };
    const balance = await rpc("eth_call", [balanceCall, "latest"]);
    return { result: true, balance: BigInt(balance).toString() };
  },
  "/sandbox/expire": async (p) => {
    const ms = Number(parseInteger(p.ms, "ms", 120_000n));
    if (ms < 0) throw new ApiError("ms must not be negative");
    clockOffset += ms;
    await rpc("evm_increaseTime", [Math.ceil(ms / 1000)]); // contracts' block.timestamp keeps up
    return { result: true, now: now() };
  },
  "/sandbox/info": () => ({
    anvil: anvilUrl,
    gateway: { address: toBase58(GATEWAY), hex: hex(GATEWAY) },
    tokens: TOKENS.map((t) => ({
      address: toBase58(t.address),
      hex: hex(t.address),
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
    })),
    genesisBlockID: hex(GENESIS_ID),
    energyFee: ENERGY_FEE,
    transactionFee: TRANSACTION_FEE,
    freeNetLimit: FREE_NET_LIMIT,
    now: now(),
  }),
};

/** JSON with BigInts written as plain numbers (java-tron's int64 are JSON numbers). */
function jsonNumbers(_, value) {
  return typeof value === "bigint" ? `\u0000${value}\u0000` : value;
}
const toJson = (value) => JSON.stringify(value, jsonNumbers).replace(/"\\u0000(-?\d+)\\u0000"/g, "$1");

// One request at a time: a broadcast reads and writes anvil's state in several steps.
let queue = Promise.resolve();
function serialized(work) {
  const run = queue.then(work, work);
  queue = run.catch(() => {});
  return run;
}

function params(url, body) {
  const p = {};
  for (const [key, value] of url.searchParams) p[key] = value;
  if (body.trim() === "") return p;
  const parsed = JSON.parse(body);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ApiError("the body is not a JSON object");
  return { ...p, ...parsed };
}

const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", async () => {
    const url = new URL(req.url, "http://127.0.0.1");
    const route = routes[url.pathname];
    res.setHeader("content-type", "application/json");
    if (!route) {
      res.statusCode = 404;
      res.end(toJson({ Error: `no such endpoint: ${url.pathname}` }));
      return;
    }
    let answer;
    try {
      answer = await serialized(() => {
        tick();
        return route(params(url, body));
      });
    } catch (e) {
      if (!(e instanceof ApiError) && !(e instanceof SyntaxError)) console.error(`tron-node: ${url.pathname}: ${e.stack ?? e}`);
      answer = { Error: `${e instanceof ApiError ? "" : `${e.name}: `}${e.message}` };
    }
    res.end(toJson(answer));
  });
});

function parseArgs(argv) {
  let port = 0;
  let config = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--port") port = Number(argv[++i]);
    else if (argv[i] === "--config") config = JSON.parse(argv[++i]);
    else if (/^\d+$/.test(argv[i])) port = Number(argv[i]);
    else throw new Error(`unknown argument ${argv[i]} (usage: node tron-node.mjs [--port N] [--config JSON])`);
  }
  return { port, config };
}

// Ends with its parent: the Sandbox holds this process's standard input.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
process.on("SIGTERM", () => process.exit(0));
process.on("SIGINT", () => process.exit(0));

try {
  await startAnvil();
  await placeContracts();
} catch (e) {
  console.error(`tron-node: ${e.message}`);
  process.exit(1);
}
server.listen(listenPort, "127.0.0.1", () => {
  console.log(`LISTENING ${server.address().port}`);
});
