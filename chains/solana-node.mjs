// The Sandbox's Solana chain: a real Solana runtime (LiteSVM, npm `litesvm`: the SVM that validators run, with the
// System, SPL Token and Associated Token Account programs; signatures, fee payers and blockhashes checked) behind
// the JSON-RPC methods a wallet uses, on loopback. Not a mock of the RPC's answers: every transaction is simulated,
// then executed by the runtime, and what it answers comes from the runtime's accounts.
//
//   node solana-node.mjs [port]      prints "LISTENING <port>" once it answers; ends when its standard input ends
//
// Methods (their shapes as Solana's RPC answers them): getGenesisHash, getLatestBlockhash, isBlockhashValid,
// getBalance, getTokenAccountBalance, getMultipleAccounts, simulateTransaction, getFeeForMessage, sendTransaction (base64, preflight simulated first),
// getSignatureStatuses, getTransaction (base64); plus the Sandbox's own sandbox_airdrop(address, lamports),
// sandbox_mintToken(mint, owner, amount, decimals) and sandbox_expireBlockhash().
//
// The gateway program. The Sandbox's gateway program id (gateway-sim's `gateway_contract("solana")`) holds a real
// sBPF program, assembled below byte by byte because Solana's program tool chain (cargo build-sbf) does not run on
// these machines: it refuses an instruction whose first account did not sign, and otherwise succeeds. The tokens move
// by the deposit instruction before it (a real SPL Token or System transfer to the gateway's vault, executed by the
// runtime); gateway-sim reads the executed transaction back and checks it is the order's.
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { LiteSVM } from "litesvm";
import {
  address,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getProgramDerivedAddress,
  getTransactionDecoder,
  lamports,
} from "@solana/kit";
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
} from "@solana-program/token";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const svm = new LiteSVM()
  .withSysvars()
  .withBuiltins()
  .withDefaultPrograms()
  .withSigverify(true)
  .withBlockhashCheck(true)
  .withTransactionHistory(10_000n);
// A fixed genesis hash of its own, so a client can tell this cluster from any other before it signs.
const GENESIS = getBase58Decoder().decode(createHash("sha256").update("gateway-desk sandbox solana").digest());
// gateway-sim's gateway_contract("solana"): "gateway-sim-contract" then "-solana-pub!", 32 bytes.
const GATEWAY_PROGRAM = getBase58Decoder().decode(Buffer.from("gateway-sim-contract-solana-pub!"));
const decodeTx = getTransactionDecoder();
const decodeMessage = getCompiledTransactionMessageDecoder();
const base64 = getBase64Encoder();
const base64Text = getBase64Decoder();
const base58 = getBase58Encoder();
const base58Text = getBase58Decoder();
// signature → { slot, wire (base64), fee, logs }
const executed = new Map();

/// A minimal sBPF (v0) ELF: `entrypoint(input)` fails with custom error 1 when the instruction names no account or
/// its first account is not a signer (the serialized input: u64 account count, then per account dup marker,
/// is_signer, …), else returns 0.
function gatewayProgramElf() {
  const insn = (op, regs, off, imm) => {
    const b = Buffer.alloc(8);
    b.writeUInt8(op, 0);
    b.writeUInt8(regs, 1);
    b.writeInt16LE(off, 2);
    b.writeInt32LE(imm, 4);
    return b;
  };
  const text = Buffer.concat([
    insn(0x79, 0x12, 0, 0), // ldxdw r2, [r1+0]     the number of accounts
    insn(0x15, 0x02, 4, 0), // jeq r2, 0, +4         none: fail
    insn(0x71, 0x13, 9, 0), // ldxb r3, [r1+9]      the first account's is_signer
    insn(0x15, 0x03, 2, 0), // jeq r3, 0, +2         not signed: fail
    insn(0xb7, 0x00, 0, 0), // mov64 r0, 0
    insn(0x95, 0x00, 0, 0), // exit
    insn(0xb7, 0x00, 0, 1), // mov64 r0, 1           custom error 1
    insn(0x95, 0x00, 0, 0), // exit
  ]);
  const shstrtab = Buffer.from("\0.text\0.shstrtab\0");
  const textOffset = 64 + 56; // after the file header and one program header
  const shstrOffset = textOffset + text.length;
  const shOffset = (shstrOffset + shstrtab.length + 7) & ~7;
  const header = Buffer.alloc(64);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(header, 0); // ELF64, little-endian, version 1, System V
  header.writeUInt16LE(3, 16); // ET_DYN
  header.writeUInt16LE(247, 18); // EM_BPF
  header.writeUInt32LE(1, 20);
  header.writeBigUInt64LE(BigInt(textOffset), 24); // e_entry: the start of .text
  header.writeBigUInt64LE(64n, 32); // e_phoff
  header.writeBigUInt64LE(BigInt(shOffset), 40); // e_shoff
  header.writeUInt32LE(0, 48); // e_flags: SBPF v0
  header.writeUInt16LE(64, 52);
  header.writeUInt16LE(56, 54);
  header.writeUInt16LE(1, 56);
  header.writeUInt16LE(64, 58);
  header.writeUInt16LE(3, 60);
  header.writeUInt16LE(2, 62); // e_shstrndx
  const load = Buffer.alloc(56); // PT_LOAD, read + execute, the text
  load.writeUInt32LE(1, 0);
  load.writeUInt32LE(5, 4);
  for (const at of [8, 16, 24]) load.writeBigUInt64LE(BigInt(textOffset), at);
  load.writeBigUInt64LE(BigInt(text.length), 32);
  load.writeBigUInt64LE(BigInt(text.length), 40);
  load.writeBigUInt64LE(8n, 48);
  const section = (name, type, flags, addr, offset, size, align) => {
    const s = Buffer.alloc(64);
    s.writeUInt32LE(name, 0);
    s.writeUInt32LE(type, 4);
    s.writeBigUInt64LE(BigInt(flags), 8);
    s.writeBigUInt64LE(BigInt(addr), 16);
    s.writeBigUInt64LE(BigInt(offset), 24);
    s.writeBigUInt64LE(BigInt(size), 32);
    s.writeBigUInt64LE(BigInt(align), 48);
    return s;
  };
  const body = Buffer.concat([header, load, text, shstrtab]);
  return Buffer.concat([
    body,
    Buffer.alloc(shOffset - body.length),
    section(0, 0, 0, 0, 0, 0, 0),
    section(1, 1, 0x6, textOffset, textOffset, text.length, 8), // .text: SHT_PROGBITS, alloc + exec
    section(7, 3, 0, 0, shstrOffset, shstrtab.length, 1), // .shstrtab
  ]);
}
svm.addProgram(address(GATEWAY_PROGRAM), gatewayProgramElf());
// The gateway's vault (the program-derived address of seeds ["vault"]): where an order's deposit goes. Funded with
// its rent-exempt minimum so that a SOL deposit of any size is accepted; its token accounts are made with the mints.
const [VAULT] = await getProgramDerivedAddress({ programAddress: address(GATEWAY_PROGRAM), seeds: ["vault"] });
svm.airdrop(VAULT, lamports(svm.minimumBalanceForRentExemption(0n)));

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const slot = () => Number(svm.getClock().slot);
const context = (value) => ({ context: { slot: slot() }, value });

function tokenAccount(owner, mint) {
  return findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
}

/** An account as Solana's RPC gives it in base64, or null when it does not exist. */
function encodedAccount(account) {
  if (!account || account.exists === false) return null;
  return {
    lamports: Number(account.lamports),
    owner: String(account.programAddress),
    data: [Buffer.from(account.data).toString("base64"), "base64"],
    executable: Boolean(account.executable),
    rentEpoch: 0,
    space: account.data.length,
  };
}

function failure(outcome) {
  return typeof outcome.err === "function" ? outcome : null;
}

const methods = {
  getGenesisHash: () => GENESIS,
  getLatestBlockhash: () => context({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: slot() + 150 }),
  isBlockhashValid: ([hash]) => context(hash === svm.latestBlockhash()),
  getBalance: ([who]) => context(Number(svm.getBalance(address(who)) ?? 0n)),
  getTokenAccountBalance: ([account]) => {
    const held = svm.getAccount(address(account));
    if (!held.exists || held.programAddress !== TOKEN_PROGRAM_ADDRESS) {
      throw new RpcError(-32602, "Invalid param: could not find account");
    }
    const token = getTokenDecoder().decode(held.data);
    const mint = svm.getAccount(token.mint);
    const decimals = mint.exists ? mint.data[44] : 0;
    return context({ amount: token.amount.toString(), decimals, uiAmountString: null });
  },
  getFeeForMessage: ([message]) => {
    const compiled = decodeMessage.decode(base64.encode(message));
    return context(5000 * compiled.header.numSignerAccounts);
  },
  getMultipleAccounts: ([addresses, options]) => {
    if (options?.encoding !== "base64") throw new RpcError(-32602, "only base64-encoded accounts are given");
    return context(addresses.map((a) => encodedAccount(svm.getAccount(address(a)))));
  },
  // As Solana's RPC: the transaction run on the current state, signatures not verified (sigVerify false), nothing
  // kept; the requested accounts as the run leaves them.
  simulateTransaction: ([wire, options]) => {
    if (options?.encoding !== "base64") throw new RpcError(-32602, "only base64-encoded transactions are taken");
    if (options?.sigVerify) throw new RpcError(-32602, "sigVerify is not supported here; the app simulates unsigned");
    const tx = decodeTx.decode(base64.encode(wire));
    svm.withSigverify(false);
    let simulated;
    try {
      simulated = svm.simulateTransaction(tx);
    } finally {
      svm.withSigverify(true);
    }
    const wanted = options?.accounts?.addresses ?? [];
    if (failure(simulated)) {
      return context({
        err: String(simulated.err()),
        logs: simulated.meta().logs(),
        accounts: null,
        unitsConsumed: Number(simulated.meta().computeUnitsConsumed()),
      });
    }
    const post = new Map(simulated.postAccounts().map((a) => [String(a.address), a]));
    return context({
      err: null,
      logs: simulated.meta().logs(),
      accounts: wanted.map((a) => encodedAccount(post.get(a) ?? svm.getAccount(address(a)))),
      unitsConsumed: Number(simulated.meta().computeUnitsConsumed()),
    });
  },
  sendTransaction: ([wire, options]) => {
    if (options?.encoding !== "base64") throw new RpcError(-32602, "only base64-encoded transactions are taken");
    const tx = decodeTx.decode(base64.encode(wire));
    const simulated = svm.simulateTransaction(tx);
    if (failure(simulated)) {
      throw new RpcError(-32002, `Transaction simulation failed: ${String(simulated.err())}`, {
        err: String(simulated.err()),
        logs: simulated.meta().logs(),
      });
    }
    const outcome = svm.sendTransaction(tx);
    if (failure(outcome)) {
      throw new RpcError(-32002, `Transaction failed: ${String(outcome.err())}`, { err: String(outcome.err()) });
    }
    const signature = base58Text.decode(outcome.signature());
    executed.set(signature, { slot: slot(), wire, logs: outcome.logs() });
    svm.warpToSlot(svm.getClock().slot + 1n);
    return signature;
  },
  getSignatureStatuses: ([signatures]) =>
    context(
      signatures.map((s) => {
        const done = executed.get(s);
        return done
          ? { slot: done.slot, confirmations: null, err: null, status: { Ok: null }, confirmationStatus: "finalized" }
          : null;
      }),
    ),
  // Newest first, as a real node lists them: the executed transactions that name \`who\` among their accounts (its
  // 32 bytes appear in the transaction), at most \`limit\` (1000 by default).
  getSignaturesForAddress: ([who, options]) => {
    const key = Buffer.from(base58.encode(who));
    const limit = Number(options?.limit ?? 1000);
    const found = [];
    for (const [signature, done] of [...executed.entries()].reverse()) {
      if (found.length >= limit) break;
      if (Buffer.from(done.wire, "base64").includes(key)) {
        found.push({ signature, slot: done.slot, err: null, memo: null, blockTime: null, confirmationStatus: "finalized" });
      }
    }
    return found;
  },
  getTransaction: ([signature]) => {
    const done = executed.get(signature);
    if (!done) return null;
    return {
      slot: done.slot,
      blockTime: null,
      transaction: [done.wire, "base64"],
      meta: { err: null, status: { Ok: null }, fee: 5000, logMessages: done.logs },
      version: 0,
    };
  },
  sandbox_airdrop: ([who, amount]) => {
    // A wallet account that exists is credited in place: LiteSVM's airdrop is a transaction, and the same one twice
    // within one blockhash (a Sandbox funding its wallet again, as when the API version is switched) is refused as
    // already processed.
    const held = svm.getAccount(address(who));
    if (held.exists && held.data.length === 0 && String(held.programAddress) === SYSTEM_PROGRAM) {
      svm.setAccount({ ...held, address: address(who), lamports: lamports(BigInt(held.lamports) + BigInt(amount)) });
      return null;
    }
    const outcome = svm.airdrop(address(who), lamports(BigInt(amount)));
    if (outcome && failure(outcome)) throw new RpcError(-32603, `airdrop failed: ${String(outcome.err())}`);
    return null;
  },
  sandbox_mintToken: async ([mint, owner, amount, decimals]) => {
    const rent = (size) => svm.minimumBalanceForRentExemption(BigInt(size));
    if (!svm.getAccount(address(mint)).exists) {
      const data = getMintEncoder().encode({
        mintAuthority: null,
        supply: 0n,
        decimals,
        isInitialized: true,
        freezeAuthority: null,
      });
      svm.setAccount({ address: address(mint), data, executable: false, lamports: rent(data.length), programAddress: TOKEN_PROGRAM_ADDRESS, space: BigInt(data.length) });
    }
    const credit = async (who, more) => {
      const [ata] = await tokenAccount(who, mint);
      const held = svm.getAccount(ata);
      const before = held.exists ? getTokenDecoder().decode(held.data).amount : 0n;
      const data = getTokenEncoder().encode({
        mint: address(mint),
        owner: address(who),
        amount: before + more,
        delegate: null,
        state: 1,
        isNative: null,
        delegatedAmount: 0n,
        closeAuthority: null,
      });
      svm.setAccount({ address: ata, data, executable: false, lamports: rent(data.length), programAddress: TOKEN_PROGRAM_ADDRESS, space: BigInt(data.length) });
      return ata;
    };
    // The vault's token account exists for every mint the Sandbox hands out, so a deposit can land in it.
    await credit(VAULT, 0n);
    return credit(owner, BigInt(amount));
  },
  sandbox_expireBlockhash: () => {
    svm.expireBlockhash();
    return null;
  },
};

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", async () => {
    let id = null;
    let answer;
    try {
      const call = JSON.parse(body);
      id = call.id ?? null;
      const method = methods[call.method];
      if (!method) throw new RpcError(-32601, `Method not found: ${call.method}`);
      answer = { jsonrpc: "2.0", id, result: await method(call.params ?? []) };
    } catch (e) {
      const error =
        e instanceof RpcError ? { code: e.code, message: e.message, data: e.data } : { code: -32603, message: String(e) };
      answer = { jsonrpc: "2.0", id, error };
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(answer, (_, v) => (typeof v === "bigint" ? Number(v) : v)));
  });
});

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  console.log(`LISTENING ${server.address().port}`);
});
// Ends with its parent: whoever started it holds its standard input.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
