import { describe, expect, it } from "vitest";
import {
  EIP55_MISMATCH,
  addressPlaceholder,
  bytesToBase64,
  familiesListed,
  chainFamily,
  checkAddress,
  checkHandIn,
  evmChecksumWrong,
  guessFamily,
  psbtHexToBase64,
  toChecksumAddress,
} from "./addresses";

const EVM = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BECH32 = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const TAPROOT = "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297";
const P2PKH = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
const P2SH = "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy";
const TESTNET = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";
const TRON = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const SOLANA = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const HASH = "a".repeat(64);
const SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

describe("the families in a sentence, from the generated facts", () => {
  it("lists every family, or those asked for", () => {
    expect(familiesListed()).toBe("Bitcoin, EVM, Tron or Solana");
    expect(familiesListed(["evm", "tron", "solana"], "and")).toBe("EVM, Tron and Solana");
    expect(familiesListed(["solana"])).toBe("Solana");
  });

  it("says how each family's addresses start, or names the family where they share no start", () => {
    expect(addressPlaceholder()).toBe("bc1…, 0x…, T…, or a Solana address");
    expect(addressPlaceholder(["evm"])).toBe("0x…");
  });
});

describe("chainFamily", () => {
  it("knows the gateway's chains", () => {
    expect(chainFamily("bitcoin")).toBe("bitcoin");
    expect(chainFamily(" Tron ")).toBe("tron");
    expect(chainFamily("solana")).toBe("solana");
    for (const c of ["bob", "ethereum", "base", "bsc", "arbitrum", "bob-sepolia", "telos"]) {
      expect(chainFamily(c)).toBe("evm");
    }
    expect(chainFamily("fiat")).toBeNull();
  });
});

describe("checkAddress", () => {
  it("accepts well-formed addresses of the chain's family", () => {
    expect(checkAddress("base", EVM)).toBeNull();
    expect(checkAddress("base", EVM.toLowerCase())).toBeNull();
    for (const a of [BECH32, TAPROOT, P2PKH, P2SH, TESTNET, BECH32.toUpperCase()]) {
      expect(checkAddress("bitcoin", a)).toBeNull();
    }
    expect(checkAddress("tron", TRON)).toBeNull();
    expect(checkAddress("solana", SOLANA)).toBeNull();
    expect(checkAddress("bitcoin", `  ${BECH32}  `)).toBeNull();
  });

  it("says what is wrong with an EVM address", () => {
    expect(checkAddress("bob", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toMatch(/starts with 0x/);
    expect(checkAddress("bob", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe")).toMatch(/this one has 39/);
    expect(checkAddress("bob", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeZ")).toMatch(/“Z” is not one/);
    expect(checkAddress("bob", "")).toBe("Enter an EVM address.");
  });

  it("flags an EVM address whose capital letters do not match its EIP-55 checksum, as typed", () => {
    // EIP-55's own test vectors.
    const vectors = [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ];
    for (const good of vectors) {
      expect(toChecksumAddress(good.toLowerCase()), good).toBe(good);
      expect(checkAddress("base", good), good).toBeNull();
      // No checksum in one case only: taken as typed.
      expect(checkAddress("base", good.toLowerCase()), good).toBeNull();
      expect(checkAddress("base", `0x${good.slice(2).toUpperCase()}`), good).toBeNull();
      // Any one letter in the other case breaks the checksum.
      const letters = [...good.slice(2)].flatMap((c, i) => (/[a-f]/i.test(c) ? [i + 2] : []));
      expect(letters.length).toBeGreaterThan(5);
      for (const at of letters) {
        const c = good[at];
        const flipped =
          good.slice(0, at) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + good.slice(at + 1);
        expect(evmChecksumWrong(flipped), flipped).toBe(true);
        expect(checkAddress("bob", flipped), flipped).toBe(EIP55_MISMATCH);
      }
    }
    expect(EIP55_MISMATCH).toBe(
      "This EVM address's capital letters do not match its checksum (EIP-55): one character may be mistyped. Copy it again from its source.",
    );
    // Shape problems are said first; and the owner (always EVM) is checked the same way.
    expect(checkAddress("bob", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAe")).toMatch(/this one has 39/);
    expect(checkAddress("ethereum", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe(EIP55_MISMATCH);
  });

  it("says what is wrong with a Bitcoin address", () => {
    expect(checkAddress("bitcoin", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdb")).toMatch(/“b” cannot appear/);
    expect(checkAddress("bitcoin", "bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toMatch(/all lower case/);
    expect(checkAddress("bitcoin", "bc1q")).toMatch(/wrong length/);
    expect(checkAddress("bitcoin", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0")).toMatch(/“0” cannot appear/);
    expect(checkAddress("bitcoin", "xyz")).toMatch(/starts with bc1, 1 or 3/);
  });

  it("says when an address is of another family", () => {
    expect(checkAddress("bitcoin", EVM)).toBe("This looks like an EVM address, but bitcoin needs a Bitcoin address.");
    expect(checkAddress("base", BECH32)).toMatch(/looks like a Bitcoin address, but base needs an EVM address/);
    expect(checkAddress("tron", EVM)).toMatch(/looks like an EVM address/);
    expect(checkAddress("solana", EVM)).toMatch(/looks like an EVM address/);
    expect(checkAddress("bitcoin", SOLANA)).toMatch(/looks like a Solana address/);
  });

  it("checks Tron and Solana shapes", () => {
    expect(checkAddress("tron", "AXYZopYRdj")).toMatch(/starts with T/);
    expect(checkAddress("tron", "AXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf")).toMatch(/looks like a Solana address/);
    expect(checkAddress("tron", "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeB")).toMatch(/this one has 33/);
    expect(checkAddress("tron", "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAe0f")).toMatch(/“0” cannot appear/);
    expect(checkAddress("solana", "9WzDXwBbmkg8ZTbNMqUx")).toMatch(/32 to 44 characters/);
    expect(checkAddress("solana", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWl")).toMatch(/“l” cannot appear/);
  });

  it("refuses inner spaces and leaves unknown chains to the app", () => {
    expect(checkAddress("bitcoin", "bc1q ar0s")).toMatch(/no spaces/);
    expect(checkAddress("fiat", "anything")).toBeNull();
  });

  it("guesses families", () => {
    expect(guessFamily(EVM)).toBe("evm");
    expect(guessFamily(TRON)).toBe("tron");
    expect(guessFamily(BECH32)).toBe("bitcoin");
    expect(guessFamily(SOLANA)).toBe("solana");
    expect(guessFamily("hello")).toBeNull();
  });
});

describe("PSBTs handed back", () => {
  it("takes a PSBT in base64 or hex, and says when base64 is broken", () => {
    expect(checkHandIn("onramp", "bitcoin", " cHNidP8BAHECAAAAAQ==\n")).toEqual({
      ok: true,
      text: "cHNidP8BAHECAAAAAQ==",
      kind: "psbt",
    });
    const hex = "70736274ff" + "00".repeat(40);
    expect(checkHandIn("onramp", "bitcoin", hex)).toEqual({ ok: true, text: hex, kind: "psbt" });
    const broken = checkHandIn("onramp", "bitcoin", "cHNidP8B*AHE");
    expect(broken.ok).toBe(false);
    expect(broken.ok ? "" : broken.message).toContain("base64");
  });

  it("turns a PSBT's hex and a file's bytes into base64", () => {
    expect(psbtHexToBase64("70736274ff")).toBe("cHNidP8=");
    expect(psbtHexToBase64("7073 zz")).toBeNull();
    expect(bytesToBase64(new Uint8Array([0x70, 0x73, 0x62, 0x74, 0xff]))).toBe("cHNidP8=");
  });
});

describe("checkHandIn", () => {
  it("takes a Bitcoin txid or signed transaction hex for an onramp", () => {
    expect(checkHandIn("onramp", "bitcoin", HASH)).toEqual({ ok: true, text: HASH, kind: "bitcoinTxid" });
    const tx = "02000000" + "ab".repeat(100);
    expect(checkHandIn("onramp", "bitcoin", `  ${tx.slice(0, 50)}\n${tx.slice(50)} `)).toEqual({
      ok: true,
      text: tx,
      kind: "bitcoinTx",
    });
    const bad = (text: string) => {
      const r = checkHandIn("onramp", "bitcoin", text);
      return r.ok ? null : r.message;
    };
    expect(bad("")).toMatch(/Paste the signed transaction/);
    expect(bad("xyz")).toMatch(/hexadecimal/);
    expect(bad("abc")).toMatch(/even number of characters; this has 3/);
    expect(bad("abcd")).toMatch(/too short/);
    expect(bad("ab".repeat(40) + "a")).toMatch(/even number/);
  });

  it("takes an EVM or Tron hash, adding 0x where the app needs it", () => {
    expect(checkHandIn("offramp", "bob", `0x${HASH}`)).toEqual({ ok: true, text: `0x${HASH}`, kind: "txHash" });
    expect(checkHandIn("offramp", "bob", HASH)).toEqual({ ok: true, text: `0x${HASH}`, kind: "txHash" });
    expect(checkHandIn("tokenSwap", "tron", HASH)).toEqual({ ok: true, text: HASH, kind: "txHash" });
    expect(checkHandIn("tokenSwap", "tron", `0x${HASH}`)).toEqual({ ok: true, text: `0x${HASH}`, kind: "txHash" });
    const r = checkHandIn("offramp", "base", "0x1234");
    expect(r.ok ? null : r.message).toMatch(/64 hexadecimal characters; this has 4/);
    const g = checkHandIn("offramp", "base", `0x${"g".repeat(64)}`);
    expect(g.ok).toBe(false);
    expect(checkHandIn("offramp", "base", "").ok).toBe(false);
    expect(checkHandIn("offramp", "base", `0x${HASH.slice(0, 30)} ${HASH.slice(30)}`).ok).toBe(false);
  });

  it("takes a Solana signature of 64 to 88 base58 characters (64 bytes: 87 or 88, fewer with leading zero bytes)", () => {
    expect(checkHandIn("tokenSwap", "solana", SIGNATURE)).toEqual({ ok: true, text: SIGNATURE, kind: "txHash" });
    const short = checkHandIn("tokenSwap", "solana", SIGNATURE.slice(0, 60));
    expect(short.ok ? null : short.message).toMatch(
      /A Solana transaction signature has 64 to 88 characters; this has 60/,
    );
    // 64 zero bytes are 64 ones in base58, which the strict check takes (gateway-client's txhash.rs): so does this one.
    expect(checkHandIn("tokenSwap", "solana", "1".repeat(64)).ok).toBe(true);
    expect(checkHandIn("tokenSwap", "solana", `0x${HASH}`).ok).toBe(false);
  });
});
