// The app's wallet as the window knows it: its state and, while unlocked, its addresses. Never a key: the phrase
// passes through here only while it is being created (shown once) or explicitly revealed, and is forgotten as soon
// as the person moves on. The API is injectable for tests (default: the real one).
import type { DeskError } from "../bindings/DeskError";
import type { DeskEvent } from "../bindings/DeskEvent";
import type { NewPhrase } from "../bindings/NewPhrase";
import type { WalletView } from "../bindings/WalletView";
import type { KeyFamily } from "../bindings/KeyFamily";

/** What the wallet holds of the swap form's source token, and what "Max" puts in the amount field. */
export interface Spendable {
  units: string;
  maxUnits: string;
  symbol: string;
  source: string;
}
import { deskApi, onDeskEvent, toDeskError, type DeskApi } from "../ipc";

/** What the wallet view is doing. */
export type WalletStep = "overview" | "create-show" | "create-check" | "import" | "reveal" | "remove";

/** The shortest app password desk-core accepts (`vault::MIN_PASSWORD_CHARS`). */
export const MIN_PASSWORD_CHARS = 10;

/** Why two typed passwords cannot be used, or null. */
export function passwordProblem(password: string, again: string): string | null {
  if ([...password].length < MIN_PASSWORD_CHARS) {
    return `The app password must be at least ${MIN_PASSWORD_CHARS} characters long.`;
  }
  if (password !== again) return "The two passwords differ. Type the same password twice.";
  return null;
}

export class WalletStore {
  view = $state<WalletView | null>(null);
  step = $state<WalletStep>("overview");
  busy = $state(false);
  error = $state<DeskError | null>(null);
  /** A new phrase being created: shown, then checked. Forgotten when creation ends. */
  fresh = $state<NewPhrase | null>(null);
  /** The revealed phrase, while the person looks at it. */
  revealed = $state<string[] | null>(null);

  /** What the wallet can spend of the swap form's source token, when read. */
  balance = $state<Spendable | null>(null);
  balanceError = $state<string | null>(null);

  #api: DeskApi;
  /** Counts balance reads, so that a late answer to an earlier one is dropped. */
  #balanceRead = 0;
  /** The chain and token of the latest balance read, read again by `refreshBalance`. */
  #balanceOf: { chain: string; token: string } | null = null;
  #connection: Promise<() => void> | null = null;

  constructor(api: DeskApi = deskApi) {
    this.#api = api;
  }

  get unlocked(): boolean {
    return this.view?.state === "unlocked";
  }

  /** Listens for the wallet locking (idle time, or another part of the app), once. */
  connect(subscribe: (handler: (event: DeskEvent) => void) => Promise<() => void> = onDeskEvent): void {
    if (this.#connection) return;
    this.#connection = subscribe((event) => {
      if (event.type === "walletLocked") {
        this.revealed = null;
        void this.load();
      }
    }).catch(() => () => {});
  }

  /**
   * Reads what the wallet can spend of `token` on `chain` (only while unlocked), from desk-core's rail of the chain's
   * family: Bitcoin from the gateway's get-max-spendable, the others from the chain (Max of a coin keeps its fees).
   */
  async loadBalance(chain: string, token = ""): Promise<void> {
    // Only the newest read counts: an earlier token's balance arriving late must not show beside this one.
    const asked = ++this.#balanceRead;
    this.#balanceOf = { chain, token };
    this.balance = null;
    this.balanceError = null;
    if (!this.unlocked) return;
    try {
      const b = await this.#api.walletBalance(chain, token);
      if (asked !== this.#balanceRead) return;
      this.balance = { units: b.units, maxUnits: b.maxUnits, symbol: b.symbol, source: b.source };
    } catch (err) {
      if (asked !== this.#balanceRead) return;
      this.balanceError = toDeskError(err).message;
    }
  }

  /** Reads the latest balance shown again (the Sandbox's clock moved, and a finished order paid the wallet). */
  async refreshBalance(): Promise<void> {
    if (this.#balanceOf) await this.loadBalance(this.#balanceOf.chain, this.#balanceOf.token);
  }

  async load(): Promise<void> {
    try {
      this.view = await this.#api.walletStatus();
    } catch (err) {
      this.error = toDeskError(err);
    }
  }

  /** Runs one wallet call: busy while it runs, its failure shown; gives whether it succeeded. */
  async #run(action: () => Promise<void>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.error = null;
    try {
      await action();
      return true;
    } catch (err) {
      this.error = toDeskError(err);
      return false;
    } finally {
      this.busy = false;
    }
  }

  go(step: WalletStep): void {
    this.error = null;
    this.revealed = null;
    if (step === "overview" && this.fresh) {
      this.fresh = null;
      void this.#api.walletCancelNew().catch(() => {});
    }
    this.step = step;
  }

  async create(words: 12 | 24): Promise<void> {
    await this.#run(async () => {
      this.fresh = await this.#api.walletNew(words);
      this.step = "create-show";
    });
  }

  async confirmNew(answers: string[], password: string): Promise<boolean> {
    return this.#run(async () => {
      this.view = await this.#api.walletConfirmNew(answers, password);
      this.fresh = null;
      this.step = "overview";
    });
  }

  async importPhrase(phrase: string, passphrase: string, password: string): Promise<boolean> {
    return this.#run(async () => {
      this.view = await this.#api.walletImport(phrase, passphrase, password);
      this.step = "overview";
    });
  }

  async importKey(family: KeyFamily, key: string, password: string): Promise<boolean> {
    return this.#run(async () => {
      this.view = await this.#api.walletImportKey(family, key, password);
      this.step = "overview";
    });
  }

  async unlock(password: string): Promise<boolean> {
    return this.#run(async () => {
      this.view = await this.#api.walletUnlock(password);
    });
  }

  async lock(): Promise<void> {
    await this.#run(async () => {
      this.revealed = null;
      this.view = await this.#api.walletLock();
    });
  }

  async reveal(password: string): Promise<void> {
    await this.#run(async () => {
      this.revealed = await this.#api.walletReveal(password);
    });
  }

  async remove(): Promise<void> {
    await this.#run(async () => {
      this.view = await this.#api.walletRemove();
      this.step = "overview";
    });
  }
}

/** The window's one wallet. */
export const wallet = new WalletStore();
