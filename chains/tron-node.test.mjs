// Tests of the Sandbox's Tron chain (tron-node.mjs), driven by TronWeb (npm `tronweb`) as a wallet would drive a
// java-tron node: TronWeb builds the transactions through the node's HTTP API and checks what it answers against
// its own protobuf encoding, signs them offline, and broadcasts them.
//
//   node --test chains/tron-node.test.mjs
//
// One tron-node.mjs child (with its anvil) serves all the tests, in order; it is stopped at the end.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TronWeb, utils } from "tronweb";

const here = dirname(fileURLToPath(import.meta.url));
const TIMEOUT = { timeout: 60_000 };
const sha256 = (text) => createHash("sha256").update(text).digest("hex");
const OWNER_KEY = sha256("tron-node test owner");
const OTHER_KEY = sha256("tron-node test other");
const OWNER = utils.crypto.pkToAddress(OWNER_KEY);
const OTHER = utils.crypto.pkToAddress(OTHER_KEY);
const TOKEN = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"; // USDT's mainnet address, a TestToken here (the default config)
const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const APPROVAL_TOPIC = "8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";
const ENERGY_FEE = 420;
const USDT = (n) => BigInt(n) * 1_000_000n;
// TronWeb's protobuf classes (google-protobuf, generated from java-tron's .proto files): the tests' own encoder,
// independent of the node's.
const { Transaction } = globalThis.TronWebProto;

let child;
let url;
let tronWeb;
let gateway; // Base58
const state = {}; // what the tests hand on: the swap, the order ids

// ---------------------------------------------------------------------------------------------------------------

before(async () => {
  child = spawn(process.execPath, [join(here, "tron-node.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("tron-node.mjs did not print LISTENING in 60 s")), 60_000);
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/LISTENING (\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`tron-node.mjs exited (${code}) before it listened`));
    });
  });
  url = `http://127.0.0.1:${port}`;
  tronWeb = new TronWeb({ fullHost: url });
  gateway = (await post("/sandbox/info")).gateway.address;
});

after(async () => {
  if (!child || child.exitCode !== null) return;
  // Its standard input ending stops it (and its anvil); killed if it has not stopped within 5 s.
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
});

async function post(path, body = {}) {
  const response = await fetch(url + path, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  assert.equal(response.status, 200, `${path} answered HTTP ${response.status}`);
  return response.json();
}

const text = (hexMessage) => Buffer.from(hexMessage ?? "", "hex").toString("utf8");
const bytesOf = (hex) => Uint8Array.from(Buffer.from(hex, "hex"));
const hexOf = (bytes) => Buffer.from(bytes).toString("hex");
const word = (hex) => hex.padStart(64, "0");
const evmHex = (base58) => TronWeb.address.toHex(base58).slice(2).toLowerCase(); // 20 bytes, no 41

/** An unsigned TriggerSmartContract built by the node through TronWeb (which checks it against its arguments). */
async function build(contract, selector, parameters, feeLimit = 100_000_000, issuer = OWNER) {
  const { result, transaction } = await tronWeb.transactionBuilder.triggerSmartContract(contract, selector, { feeLimit }, parameters, issuer);
  assert.equal(result.result, true);
  return transaction;
}

const approve = (amount, feeLimit) =>
  build(TOKEN, "approve(address,uint256)", [{ type: "address", value: gateway }, { type: "uint256", value: amount.toString() }], feeLimit);

function swap(orderId, amount, feeLimit) {
  return build(
    gateway,
    "swapCrossChain(bytes32,address,uint256,uint64,bytes32,bytes32,uint256)",
    [
      { type: "bytes32", value: `0x${orderId}` },
      { type: "address", value: TOKEN },
      { type: "uint256", value: amount.toString() },
      { type: "uint64", value: "60808" },
      { type: "bytes32", value: `0x${word("5d")}` },
      { type: "bytes32", value: `0x${word("beef")}` },
      { type: "uint256", value: "1" },
    ],
    feeLimit,
  );
}

/** A constant call's first word as a number. */
async function constant(contract, selector, parameters) {
  const answer = await tronWeb.transactionBuilder.triggerConstantContract(contract, selector, {}, parameters, OWNER);
  assert.equal(answer.result.result, true);
  return BigInt(`0x${answer.constant_result[0]}`);
}
const tokenBalance = (who) => constant(TOKEN, "balanceOf(address)", [{ type: "address", value: who }]);
const trxBalance = async (who) => BigInt((await post("/wallet/getaccount", { address: who, visible: true })).balance ?? 0);

/** A signed transaction's bytes on the chain as java-tron counts bandwidth: the Transaction serialized, + 64. */
function bandwidth(signed) {
  const tx = new Transaction();
  tx.setRawData(Transaction.raw.deserializeBinary(bytesOf(signed.raw_data_hex)));
  for (const s of signed.signature) tx.addSignature(bytesOf(s));
  return tx.serializeBinary().length + 64;
}

/** raw_data re-encoded after a change (TronWeb's protobuf), signed again by `key`: a new, consistent transaction. */
function resign(tx, change, key = OWNER_KEY) {
  const raw = Transaction.raw.deserializeBinary(bytesOf(tx.raw_data_hex));
  change(raw);
  const raw_data_hex = hexOf(raw.serializeBinary());
  const txID = createHash("sha256").update(Buffer.from(raw_data_hex, "hex")).digest("hex");
  return utils.crypto.signTransaction(key, { ...tx, raw_data_hex, txID, signature: undefined });
}

async function refused(signed, code, messagePart) {
  const answer = await post("/wallet/broadcasttransaction", signed);
  assert.equal(answer.result, false, `expected ${code}, got ${JSON.stringify(answer)}`);
  assert.equal(answer.code, code, text(answer.message));
  if (messagePart) assert.ok(text(answer.message).includes(messagePart), text(answer.message));
  // A refused transaction is in no block (a duplicate's first copy is, in one block).
  const kept = await post("/wallet/gettransactionbyid", { value: answer.txid });
  if (code === "DUP_TRANSACTION_ERROR") assert.equal(kept.raw_data_hex, signed.raw_data_hex);
  else assert.deepEqual(kept, {});
  return answer;
}

// ---------------------------------------------------------------------------------------------------------------

test("the chain is the Sandbox's own: its block 0 is not Tron mainnet's", TIMEOUT, async () => {
  const zero = await post("/wallet/getblockbynum", { num: 0 });
  assert.match(zero.blockID, /^0000000000000000[0-9a-f]{48}$/);
  assert.notEqual(zero.blockID, "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc");
  assert.equal(zero.blockID, `0000000000000000${sha256("gateway-desk sandbox tron").slice(16)}`);
  const now = await post("/wallet/getnowblock");
  assert.ok(now.block_header.raw_data.number >= 1);
  assert.equal(now.blockID.slice(0, 16), now.block_header.raw_data.number.toString(16).padStart(16, "0"));
  const parameters = Object.fromEntries((await post("/wallet/getchainparameters")).chainParameter.map((p) => [p.key, p.value]));
  assert.equal(parameters.getEnergyFee, ENERGY_FEE);
  assert.equal(parameters.getTransactionFee, 1000);
  assert.deepEqual(await post("/wallet/getaccount", { address: OWNER, visible: true }), {}); // never funded
});

test("a TronWeb-signed approve then swapCrossChain move real tokens and burn their fees", TIMEOUT, async () => {
  assert.equal((await post("/sandbox/fund", { address: OWNER, sun: 1_000_000_000 })).balance, 1_000_000_000);
  assert.equal((await post("/sandbox/mint", { token: TOKEN, address: OWNER, amount: USDT(100).toString() })).balance, USDT(100).toString());
  const account = await post("/wallet/getaccount", { address: TronWeb.address.toHex(OWNER) });
  assert.equal(account.address, TronWeb.address.toHex(OWNER).toLowerCase());
  assert.equal(account.balance, 1_000_000_000);
  const resources = await post("/wallet/getaccountresource", { address: OWNER, visible: true });
  assert.equal(resources.freeNetLimit, 600);
  assert.equal(resources.EnergyLimit, undefined);

  // approve(gateway, 60 USDT): its bytes are free bandwidth (the day's first 600).
  const trxBefore = await trxBalance(OWNER);
  const approval = await tronWeb.trx.sign(await approve(USDT(60)), OWNER_KEY);
  const sent = await tronWeb.trx.sendRawTransaction(approval);
  assert.equal(sent.result, true, JSON.stringify(sent));
  assert.equal(sent.txid, approval.txID);
  const approvalInfo = await post("/wallet/gettransactioninfobyid", { value: approval.txID });
  assert.equal(approvalInfo.receipt.result, "SUCCESS");
  assert.equal(approvalInfo.receipt.net_usage, bandwidth(approval));
  assert.equal(approvalInfo.receipt.net_fee, undefined);
  const used = await post("/wallet/getaccountresource", { address: OWNER, visible: true });
  assert.ok(Math.abs(used.freeNetUsed - bandwidth(approval)) <= 1, `freeNetUsed ${used.freeNetUsed}`); // recovering
  assert.ok(approvalInfo.receipt.energy_usage_total > 21_000);
  assert.equal(approvalInfo.receipt.energy_fee, approvalInfo.receipt.energy_usage_total * ENERGY_FEE);
  assert.equal(approvalInfo.fee, approvalInfo.receipt.energy_fee);
  assert.equal(approvalInfo.log[0].address, evmHex(TOKEN));
  assert.deepEqual(approvalInfo.log[0].topics, [APPROVAL_TOPIC, word(evmHex(OWNER)), word(evmHex(gateway))]);
  assert.equal(BigInt(`0x${approvalInfo.log[0].data}`), USDT(60));
  assert.equal(await trxBalance(OWNER), trxBefore - BigInt(approvalInfo.fee));
  assert.equal(await constant(TOKEN, "allowance(address,address)", [{ type: "address", value: OWNER }, { type: "address", value: gateway }]), USDT(60));

  // swapCrossChain(order, USDT, 25): the gateway takes the tokens; the free bandwidth left is too little, so the
  // bytes are paid in TRX.
  state.order = sha256("order 1");
  const swapTx = await tronWeb.trx.sign(await swap(state.order, USDT(25)), OWNER_KEY);
  const swapSent = await post("/wallet/broadcasttransaction", swapTx);
  assert.deepEqual(swapSent, { result: true, txid: swapTx.txID });
  const info = await post("/wallet/gettransactioninfobyid", { value: swapTx.txID });
  assert.equal(info.receipt.result, "SUCCESS");
  assert.equal(info.result, undefined);
  assert.equal(info.contract_address, TronWeb.address.toHex(gateway).toLowerCase());
  assert.equal(info.receipt.net_usage, undefined);
  assert.equal(info.receipt.net_fee, bandwidth(swapTx) * 1000);
  assert.equal(info.fee, info.receipt.energy_usage_total * ENERGY_FEE + info.receipt.net_fee);
  const transfer = info.log.find((l) => l.topics[0] === TRANSFER_TOPIC);
  assert.equal(transfer.address, evmHex(TOKEN));
  assert.deepEqual(transfer.topics.slice(1), [word(evmHex(OWNER)), word(evmHex(gateway))]);
  assert.equal(BigInt(`0x${transfer.data}`), USDT(25));
  const locked = info.log.find((l) => l.address === evmHex(gateway));
  assert.equal(locked.topics[1], state.order);

  assert.equal(await tokenBalance(OWNER), USDT(75));
  assert.equal(await tokenBalance(gateway), USDT(25));
  assert.equal(await constant(gateway, "paid(bytes32)", [{ type: "bytes32", value: `0x${state.order}` }]), 1n);
  assert.equal(await trxBalance(OWNER), trxBefore - BigInt(approvalInfo.fee) - BigInt(info.fee));

  // What was signed is what the chain keeps, in a block of its own.
  const kept = await post("/wallet/gettransactionbyid", { value: swapTx.txID });
  assert.equal(kept.ret[0].contractRet, "SUCCESS");
  assert.equal(kept.raw_data_hex, swapTx.raw_data_hex);
  // (TronWeb writes v in upper case, "1B"/"1C"; the node answers hex in lower case, as java-tron does.)
  assert.deepEqual(kept.signature, swapTx.signature.map((s) => s.toLowerCase()));
  const block = await post("/wallet/getblockbynum", { num: info.blockNumber });
  assert.deepEqual(block.transactions.map((t) => t.txID), [swapTx.txID]);
  assert.equal(block.block_header.raw_data.timestamp, info.blockTimeStamp);
  state.swap = swapTx;
});

test("tron-sign.mjs signs and derives the address exactly as TronWeb", TIMEOUT, async () => {
  const tx = await approve(USDT(1));
  const signed = await tronWeb.trx.sign(tx, OWNER_KEY);
  const out = await new Promise((resolve, reject) =>
    execFile(process.execPath, [join(here, "tron-sign.mjs"), OWNER_KEY, tx.raw_data_hex, "--address"], { timeout: 20_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout)),
    ),
  );
  assert.equal(out.txID, tx.txID);
  assert.equal(out.signature, signed.signature[0].toLowerCase());
  assert.equal(out.address, OWNER);
  assert.equal(out.addressHex, TronWeb.address.toHex(OWNER).toLowerCase());
});

test("the chain refuses what java-tron refuses, with its codes, and nothing changes", TIMEOUT, async () => {
  const tokensBefore = await tokenBalance(OWNER);
  const trxBefore = await trxBalance(OWNER);
  await post("/sandbox/fund", { address: OTHER, sun: 1_000_000_000 });

  // Signed by another key than the owner's.
  const tx = await approve(USDT(5));
  const byOther = utils.crypto.signTransaction(OTHER_KEY, { ...tx });
  await refused(byOther, "SIGERROR", `is signed by ${OTHER}`);

  // raw_data changed after signing (the fee limit, re-encoded): the signature no longer recovers to the owner.
  const signed = await tronWeb.trx.sign(tx, OWNER_KEY);
  const raw = Transaction.raw.deserializeBinary(bytesOf(signed.raw_data_hex));
  raw.setFeeLimit(raw.getFeeLimit() + 1);
  await refused({ ...signed, raw_data_hex: hexOf(raw.serializeBinary()) }, "SIGERROR", "Validate signature error");

  // A reference block the chain never had (built locally by TronWeb, on a made-up block hash).
  const head = (await post("/wallet/getnowblock")).block_header.raw_data;
  const local = await tronWeb.transactionBuilder.triggerSmartContract(TOKEN, "approve(address,uint256)", {
    feeLimit: 100_000_000,
    txLocal: true,
    blockHeader: {
      ref_block_bytes: head.number.toString(16).slice(-4).padStart(4, "0"),
      ref_block_hash: "0123456789abcdef",
      expiration: head.timestamp + 60_000,
      timestamp: head.timestamp,
    },
  }, [{ type: "address", value: gateway }, { type: "uint256", value: "5" }], OWNER);
  await refused(await tronWeb.trx.sign(local.transaction, OWNER_KEY), "TAPOS_ERROR", "Tapos check error.");

  // The same transaction twice.
  await refused(state.swap, "DUP_TRANSACTION_ERROR", "Dup transaction.");

  // A fee limit over 15,000 TRX.
  const greedy = await tronWeb.trx.sign(await approve(USDT(5), 15_000_000_001), OWNER_KEY);
  await refused(greedy, "CONTRACT_VALIDATE_ERROR", "feeLimit must be >= 0 and <= 15000000000");

  // Two contracts in one transaction.
  const two = resign(tx, (r) => r.addContract(r.getContractList()[0]));
  assert.equal(Transaction.raw.deserializeBinary(bytesOf(two.raw_data_hex)).getContractList().length, 2);
  await refused(two, "CONTRACT_VALIDATE_ERROR", "contract size should be exactly 1");

  // An unsigned transaction whose expiration passed (the chain's clock moves 2 minutes).
  const late = await tronWeb.trx.sign(await approve(USDT(5)), OWNER_KEY);
  const expire = await post("/sandbox/expire");
  assert.ok(expire.now >= late.raw_data.expiration);
  await refused(late, "TRANSACTION_EXPIRATION_ERROR", "Transaction expired");
  // ... while one built now, on the new head, is taken: the refusals were about the transactions, not the key.
  const fresh = await tronWeb.trx.sign(await approve(USDT(60)), OWNER_KEY);
  assert.ok(fresh.raw_data.expiration > expire.now);
  assert.equal((await post("/wallet/broadcasttransaction", fresh)).result, true);
  const freshFee = BigInt((await post("/wallet/gettransactioninfobyid", { value: fresh.txID })).fee);

  assert.equal(await tokenBalance(OWNER), tokensBefore);
  assert.equal(await trxBalance(OWNER), trxBefore - freshFee);
});

test("a fee limit below the call's energy: OUT_OF_ENERGY, the fee limit's energy burned, no token moved", TIMEOUT, async () => {
  const order = sha256("order 2");
  const tokensBefore = await tokenBalance(OWNER);
  const gatewayBefore = await tokenBalance(gateway);
  const trxBefore = await trxBalance(OWNER);
  const feeLimit = 30_000 * ENERGY_FEE; // 30,000 energy: past the EVM's base cost, short of the swap
  const signed = await tronWeb.trx.sign(await swap(order, USDT(10), feeLimit), OWNER_KEY);
  assert.deepEqual(await post("/wallet/broadcasttransaction", signed), { result: true, txid: signed.txID });

  const info = await post("/wallet/gettransactioninfobyid", { value: signed.txID });
  assert.equal(info.receipt.result, "OUT_OF_ENERGY");
  assert.equal(info.result, "FAILED");
  assert.equal(info.receipt.energy_usage_total, 30_000);
  assert.equal(info.receipt.energy_fee, feeLimit);
  assert.equal(info.log, undefined);
  assert.equal((await post("/wallet/gettransactionbyid", { value: signed.txID })).ret[0].contractRet, "OUT_OF_ENERGY");

  assert.equal(await tokenBalance(OWNER), tokensBefore);
  assert.equal(await tokenBalance(gateway), gatewayBefore);
  assert.equal(await constant(gateway, "paid(bytes32)", [{ type: "bytes32", value: `0x${order}` }]), 0n);
  assert.equal(await trxBalance(OWNER), trxBefore - BigInt(info.fee));
  assert.ok(info.fee >= feeLimit);
});

test("an order paid twice reverts: REVERT with the contract's reason, no token moved", TIMEOUT, async () => {
  const tokensBefore = await tokenBalance(OWNER);
  const signed = await tronWeb.trx.sign(await swap(state.order, USDT(1)), OWNER_KEY);
  assert.equal((await post("/wallet/broadcasttransaction", signed)).result, true);
  const info = await post("/wallet/gettransactioninfobyid", { value: signed.txID });
  assert.equal(info.receipt.result, "REVERT");
  assert.equal(info.result, "FAILED");
  assert.equal(text(info.resMessage), "REVERT opcode executed");
  const data = info.contractResult[0];
  assert.equal(data.slice(0, 8), "08c379a0"); // Error(string)
  const length = Number(BigInt(`0x${data.slice(72, 136)}`));
  assert.equal(Buffer.from(data.slice(136, 136 + length * 2), "hex").toString(), "order already paid");
  assert.ok(info.receipt.energy_usage_total < 100_000_000 / ENERGY_FEE); // not the whole fee limit
  assert.equal(await tokenBalance(OWNER), tokensBefore);
});

test("TRX moves by a TransferContract broadcast as hex, creating the recipient's account", TIMEOUT, async () => {
  const recipient = utils.crypto.pkToAddress(sha256("tron-node test recipient"));
  assert.deepEqual(await post("/wallet/getaccount", { address: recipient, visible: true }), {});
  const trxBefore = await trxBalance(OWNER);
  const unsigned = await tronWeb.transactionBuilder.sendTrx(recipient, 2_000_000, OWNER); // built locally
  const signed = await tronWeb.trx.sign(unsigned, OWNER_KEY);
  const whole = new Transaction();
  whole.setRawData(Transaction.raw.deserializeBinary(bytesOf(signed.raw_data_hex)));
  whole.addSignature(bytesOf(signed.signature[0]));
  const answer = await post("/wallet/broadcasthex", { transaction: hexOf(whole.serializeBinary()) });
  assert.equal(answer.result, true, answer.message);
  assert.equal(answer.code, "SUCCESS");
  assert.equal(answer.txid, signed.txID);
  assert.equal(JSON.parse(answer.transaction).raw_data.contract[0].parameter.value.amount, 2_000_000);

  const info = await post("/wallet/gettransactioninfobyid", { value: signed.txID });
  assert.equal(info.fee, 1_100_000); // 0.1 TRX of bandwidth and 1 TRX to create the account
  assert.equal(info.receipt.net_fee, 100_000);
  assert.equal(await trxBalance(recipient), 2_000_000n);
  assert.equal(await trxBalance(OWNER), trxBefore - 2_000_000n - 1_100_000n);
  const kept = await post("/wallet/gettransactionbyid", { value: signed.txID, visible: true });
  assert.equal(kept.raw_data.contract[0].type, "TransferContract");
  assert.deepEqual(kept.raw_data.contract[0].parameter.value, { amount: 2_000_000, owner_address: OWNER, to_address: recipient });
});
