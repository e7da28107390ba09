// The Swap view's whole state: the form, the quote card (kept fresh), the question the gateway asked, the order
// being signed and what was pasted. One module-level instance, `swap`, so leaving the view and coming back
// restores everything; the component only draws it. The API is injectable for tests (default: the real one).
import type { DeskError } from "../bindings/DeskError";
import type { OrderView } from "../bindings/OrderView";
import type { Question } from "../bindings/Question";
import type { QuoteCard } from "../bindings/QuoteCard";
import type { RouteView } from "../bindings/RouteView";
import type { SwapForm } from "../bindings/SwapForm";
import type { Accounts } from "../bindings/WalletAccounts";
import type { WalletView } from "../bindings/WalletView";
import { orderDetailsOf } from "../error-details";
import { deskApi, toDeskError, type DeskApi } from "../ipc";
import { checkAddress, checkHandIn } from "./addresses";
import { checkAmount, formatUnits } from "./amounts";
import {
  SLIPPAGE_PRESETS,
  checkFields,
  sameToken,
  slippageBps,
  choices,
  emptyFields,
  fieldOfError,
  fieldRules,
  parseBps,
  sameForm,
  toSwapForm,
  type FieldErrors,
  type FieldName,
  type FormFields,
} from "./form";
import {
  learnFrom,
  limitsFor,
  loadLearned,
  outsideLimits,
  routeKey,
  saveLearned,
  type Learned,
} from "./slippage-limits";
import { lockedFill, waitingForWallet, walletFill, type AddressField } from "./wallet-defaults";
import { routeChoice as windowRouteChoice, type RouteChoice } from "./chosen-route.svelte";
import { tokenOnChain } from "../routes";

/** Where the person is: filling the form and reading the card, confirming, or signing and handing in. */
export type SwapStep = "form" | "confirm" | "execute";

/** The step indicator's steps. */
export type FlowStep = "quote" | "confirm" | "sign" | "track";

export const FLOW_STEPS: readonly { id: FlowStep; label: string }[] = [
  { id: "quote", label: "Quote" },
  { id: "confirm", label: "Confirm" },
  { id: "sign", label: "Sign" },
  { id: "track", label: "Track" },
];

/** A quote is asked for again this often while it is shown. */
export const REFRESH_SECS = 30;

export type ErrorSource = "routes" | "quote" | "order" | "handIn" | "psbt" | "abandon";

export interface SwapError {
  source: ErrorSource;
  error: DeskError;
}

export class SwapState {
  // Routes of the network in use.
  routes = $state<RouteView[] | null>(null);
  routesLoading = $state(false);
  /** The network the routes (and any quote or order here) belong to. */
  networkKey = $state<string | null>(null);
  networkLabel = $state<string | null>(null);
  apiVersion = $state<string | null>(null);
  /** Said once when the network changed under an unfinished swap. */
  notice = $state<string | null>(null);

  // The form.
  fields = $state<FormFields>(emptyFields());
  /** Set by the first Get quote: from then on, empty required fields are reported too. */
  submitted = $state(false);
  /** A route chosen in Routes was just put in the form: the amount field is to take the focus (the form does it). */
  focusAmount = $state(false);
  /** A field the app's own check refused (invalid_input with details.field), with its message. */
  serverField = $state<{ field: FieldName; message: string } | null>(null);

  // The app's wallet, whose addresses fill the address fields (see wallet-defaults and useWallet).
  /** The wallet is locked: it fills no address field until it is unlocked, and the form says so. */
  walletLocked = $state(false);
  /** The wallet's addresses when it was last unlocked, to tell them from typed ones while it is locked. */
  knownAccounts = $state.raw<Accounts | null>(null);
  /** Get quote was chosen since the wallet locked: the fields waiting for it say so. */
  #askedWhileLocked = $state(false);

  // The quote.
  step = $state<SwapStep>("form");
  quoting = $state(false);
  card = $state<QuoteCard | null>(null);
  /** The form the card answers. */
  cardForm = $state<SwapForm | null>(null);
  /** The last refresh failed: the card may be out of date and cannot be confirmed. */
  cardStale = $state(false);
  /** The person ticked "I accept this loss" for the current card (only asked when the card says it is needed). */
  lossAccepted = $state(false);
  /** The person accepted the PSBT's network fee in numbers (only asked when desk-core says it is needed). */
  feeAccepted = $state(false);
  /** When the card is next asked for again (ms since the epoch). */
  refreshDue = $state(0);
  now = $state(0);
  question = $state<Question | null>(null);
  questionForm = $state<SwapForm | null>(null);
  answer = $state("");
  answerError = $state<string | null>(null);

  // The order.
  starting = $state(false);
  order = $state<OrderView | null>(null);
  signed = $state("");
  signedError = $state<string | null>(null);
  handingIn = $state(false);
  saving = $state(false);
  /** Where the PSBT was saved; "" when the save dialog was cancelled. */
  savedPath = $state<string | null>(null);

  error = $state<SwapError | null>(null);
  /** The person asked to abandon the order and is asked to confirm. */
  abandonAsked = $state(false);
  abandoning = $state(false);
  /** Continue on an unresolved creation is running. */
  resuming = $state(false);
  /** What the gateway taught about each route's slippage limits (remembered in the window's storage). */
  learnedSlippage = $state<Record<string, Learned>>(loadLearned());

  picked = $derived(choices(this.routes ?? [], this.fields));
  rules = $derived(fieldRules(this.picked.route?.kind ?? null, this.fields.srcChain, this.apiVersion));
  /** The empty address fields that wait for the locked wallet (no "Enter …" for them until Get quote). */
  walletWaiting = $derived<AddressField[]>(
    this.walletLocked ? waitingForWallet(this.fields, this.rules, this.knownAccounts) : [],
  );
  /** The slippage tolerance the chosen route takes (documented floors, then what the gateway said). */
  slippageLimits = $derived(
    limitsFor(
      this.picked.route?.kind ?? null,
      this.picked.route ? this.learnedSlippage[routeKey(this.picked.route)] : undefined,
    ),
  );
  /** Problems of the fields as typed (required ones only after the first Get quote). */
  errors = $derived.by((): FieldErrors => {
    const waiting = this.walletWaiting;
    const errors = checkFields(this.fields, this.picked, this.rules, this.submitted, waiting);
    // A field the locked wallet would fill is not the person's omission until they ask for a quote again.
    if (!this.#askedWhileLocked) for (const field of waiting) delete errors[field];
    const bps = slippageBps(this.fields);
    if (!errors.slippage && bps !== null && this.picked.route) {
      const outside = outsideLimits(bps, this.slippageLimits);
      if (outside) errors.slippage = outside;
    }
    if (this.serverField && !errors[this.serverField.field]) errors[this.serverField.field] = this.serverField.message;
    return errors;
  });
  /** The reverse route exists, so the form can be flipped. */
  canFlip = $derived(
    this.picked.src !== null &&
      this.picked.dst !== null &&
      (this.routes ?? []).some(
        (r) =>
          this.picked.dst !== null &&
          this.picked.src !== null &&
          sameToken(r.src, this.picked.dst) &&
          sameToken(r.dst, this.picked.src),
      ),
  );
  /** What Get quote would send, when the form reads right. */
  form = $derived(toSwapForm(this.fields, this.picked, this.rules));
  /** The card answers another form than the one shown now. */
  cardOutdated = $derived(this.card !== null && !sameForm(this.form, this.cardForm));
  secondsLeft = $derived(Math.max(0, Math.ceil((this.refreshDue - this.now) / 1000)));
  flowStep = $derived.by((): FlowStep => {
    if (this.step === "form") return "quote";
    if (this.step === "confirm") return "confirm";
    return this.order?.execution === "registered" ? "track" : "sign";
  });

  #api: DeskApi;
  #clock: () => number;
  #choice: RouteChoice;
  #latestRoutes = 0;
  #latestQuote = 0;

  /** `choice`: where a route chosen in the Routes view waits (the window's by default). */
  constructor(api: DeskApi = deskApi, clock: () => number = () => Date.now(), choice: RouteChoice = windowRouteChoice) {
    this.#api = api;
    this.#clock = clock;
    this.#choice = choice;
    this.now = clock();
  }

  /** Uses another API (tests). */
  setApi(api: DeskApi): void {
    this.#api = api;
  }

  /** Forgets everything (tests, and a brand-new swap). */
  reset(): void {
    this.#latestQuote++;
    this.#latestRoutes++;
    this.routes = null;
    this.routesLoading = false;
    this.networkKey = null;
    this.networkLabel = null;
    this.apiVersion = null;
    this.notice = null;
    this.fields = emptyFields();
    this.submitted = false;
    this.#clearFlow();
  }

  #clearFlow(): void {
    this.#latestQuote++;
    this.step = "form";
    this.quoting = false;
    this.card = null;
    this.cardForm = null;
    this.cardStale = false;
    this.refreshDue = 0;
    this.question = null;
    this.questionForm = null;
    this.answer = "";
    this.answerError = null;
    this.starting = false;
    this.order = null;
    this.signed = "";
    this.signedError = null;
    this.handingIn = false;
    this.saving = false;
    this.savedPath = null;
    this.serverField = null;
    this.error = null;
    this.abandonAsked = false;
    this.abandoning = false;
    this.resuming = false;
  }

  #fail(source: ErrorSource, err: unknown): DeskError {
    const error = toDeskError(err);
    this.error = { source, error };
    return error;
  }

  clearError(source?: ErrorSource): void {
    if (this.error && (source === undefined || this.error.source === source)) this.error = null;
  }

  /**
   * Follows the network in use (the component calls this whenever it changes, and on show). Loads its routes
   * the first time; when the network changes, the quote and order of the previous one are put away (the form
   * stays), since they mean nothing on the new network.
   */
  useNetwork(key: string | null, label: string | null, apiVersion: string | null): void {
    this.networkLabel = label;
    this.apiVersion = apiVersion;
    if (key === null) return;
    if (key === this.networkKey) {
      if (this.routes === null && !this.routesLoading) void this.loadRoutes();
      else if (this.routes !== null && !this.routesLoading) this.#takeChosenRoute();
      return;
    }
    const had = this.networkKey !== null;
    this.networkKey = key;
    if (had && (this.card || this.question || this.order)) {
      this.notice = this.order
        ? "The network changed, so the swap in progress was put away. Its order is in Orders, on the network it was made on."
        : "The network changed, so the quote was put away. Get a new quote on this network.";
      this.#clearFlow();
    }
    this.routes = null;
    void this.loadRoutes();
  }

  async loadRoutes(): Promise<void> {
    const id = ++this.#latestRoutes;
    this.routesLoading = true;
    try {
      const routes = await this.#api.listRoutes();
      if (id !== this.#latestRoutes) return;
      this.routes = routes;
      this.clearError("routes");
      this.#normalize();
      this.#takeChosenRoute();
    } catch (err) {
      if (id !== this.#latestRoutes) return;
      this.#fail("routes", err);
    } finally {
      if (id === this.#latestRoutes) this.routesLoading = false;
    }
  }

  /**
   * Puts a route chosen in the Routes view in the form, once this network's routes are here: its source and
   * destination chain and token, the amount empty (to be typed), the search cleared; the addresses and slippage stay.
   * A quote or question of another route goes; a swap at its signing step is put away (its order is in Orders).
   */
  #takeChosenRoute(): void {
    if (this.routes === null || this.#choice.route === null) return;
    const route = this.#choice.take();
    if (!route) return;
    const putAway = this.step === "execute" && this.order !== null;
    this.#clearFlow();
    this.submitted = false;
    const f = this.fields;
    f.query = "";
    f.srcChain = route.src.chain;
    f.srcToken = route.src.address;
    f.dstChain = route.dst.chain;
    f.dstToken = route.dst.address;
    f.amount = "";
    this.#normalize();
    const offered = this.picked.route !== null;
    const said = [
      putAway
        ? "The swap in progress was put away for the route you chose. Its order is in Orders, with its next step."
        : "",
      offered
        ? ""
        : `This network does not offer ${tokenOnChain(route.src)} → ${tokenOnChain(route.dst)} now. Choose a route here.`,
    ].filter((s) => s !== "");
    this.notice = said.length > 0 ? said.join(" ") : null;
    if (offered) this.focusAmount = true;
  }

  // Choosing chains and tokens. Each keeps the later choices that still make sense and fills in a choice that
  // has exactly one option.

  chooseSrcChain(chain: string): void {
    this.fields.srcChain = chain;
    this.#normalize();
  }

  chooseSrcToken(address: string): void {
    this.fields.srcToken = address;
    this.#normalize();
  }

  chooseDstChain(chain: string): void {
    this.fields.dstChain = chain;
    this.#normalize();
  }

  chooseDstToken(address: string): void {
    this.fields.dstToken = address;
    this.#normalize();
  }

  #normalize(): void {
    const routes = this.routes ?? [];
    const f = this.fields;
    const all = () => choices(routes, { ...f, query: "" });
    if (f.srcChain !== "" && !all().srcChains.includes(f.srcChain)) f.srcChain = "";
    if (f.srcToken !== "" && !all().src) f.srcToken = "";
    if (f.srcToken === "" && f.srcChain !== "") {
      const shown = choices(routes, f).srcTokens;
      if (shown.length === 1) f.srcToken = shown[0].address;
    }
    if (f.dstChain !== "" && !all().dstChains.includes(f.dstChain)) f.dstChain = "";
    if (f.dstChain === "") {
      const reachable = all().dstChains;
      if (reachable.length === 1) f.dstChain = reachable[0];
    }
    if (f.dstToken !== "" && !all().dst) f.dstToken = "";
    if (f.dstToken === "" && f.dstChain !== "") {
      const shown = choices(routes, f).dstTokens;
      if (shown.length === 1) f.dstToken = shown[0].address;
    }
    if (this.serverField?.field === "srcToken" || this.serverField?.field === "dstToken") this.serverField = null;
    this.#followRouteSlippage();
  }

  /** The person chose a slippage (a preset or a value of their own): the route's default no longer replaces it. */
  #slippageChosen = false;

  /**
   * Until the person chooses a slippage, the form's is the chosen route's default (desk-core's, from its tokens: the
   * documented floor where both hold one value, 1 % otherwise), never one figure for every route.
   */
  #followRouteSlippage(): void {
    if (this.#slippageChosen) return;
    const route = choices(this.routes ?? [], { ...this.fields, query: "" }).route;
    if (!route) return;
    this.fields.slippagePreset = route.defaultSlippageBps;
    this.fields.slippageCustom = "";
  }

  /**
   * Follows the app's wallet (the form calls this whenever the wallet, the chains or an address field change).
   * Unlocked, its addresses fill the address fields (never over what the person typed). Locked, the form keeps
   * everything, the addresses it filled included while the chains still fit them; one that no longer fits is emptied,
   * not refilled, and the empty fields it would fill wait for it without an error.
   */
  useWallet(view: WalletView | null): void {
    if (view === null) return;
    const locked = view.state === "locked";
    if (locked !== this.walletLocked) {
      this.walletLocked = locked;
      this.#askedWhileLocked = false;
    }
    if (view.state === "unlocked" && view.accounts) {
      this.knownAccounts = view.accounts;
      this.#patchAddresses(walletFill(this.fields, this.rules, view.accounts));
    } else if (locked && this.knownAccounts) {
      this.#patchAddresses(lockedFill(this.fields, this.rules, this.knownAccounts));
    } else if (view.state === "none") {
      this.knownAccounts = null;
    }
  }

  #patchAddresses(patch: Partial<Record<AddressField, string>>): void {
    const fields = Object.keys(patch) as AddressField[];
    if (fields.length === 0) return;
    Object.assign(this.fields, patch);
    if (this.serverField && (fields as FieldName[]).includes(this.serverField.field)) this.serverField = null;
  }

  choosePreset(bps: number): void {
    this.#slippageChosen = true;
    this.fields.slippagePreset = bps;
    this.fields.slippageCustom = "";
    this.edited("slippage");
  }

  /** Typing a custom slippage switches from the presets to it. */
  setCustomSlippage(text: string): void {
    this.#slippageChosen = true;
    this.fields.slippageCustom = text;
    this.fields.slippagePreset = null;
    this.edited("slippage");
  }

  /**
   * A field was edited: its server-side error, a gateway question about it and a quote error no longer apply to
   * what is typed, so they go (a stale error next to a changed value misleads).
   */
  edited(field: FieldName): void {
    if (this.serverField?.field === field) this.serverField = null;
    const q = this.question?.field;
    if ((q === "slippage" && field === "slippage") || (q === "amount" && field === "amount")) {
      this.question = null;
      this.questionForm = null;
      this.answerError = null;
    }
    this.clearError("quote");
  }

  /**
   * Flip: what was received is now sent, and back (only when the gateway offers the reverse route). The amount stays
   * as typed; the wallet's addresses follow the chains (see wallet-defaults).
   */
  flip(): void {
    if (!this.canFlip) return;
    const f = this.fields;
    const [srcChain, srcToken] = [f.srcChain, f.srcToken];
    f.srcChain = f.dstChain;
    f.srcToken = f.dstToken;
    f.dstChain = srcChain;
    f.dstToken = srcToken;
    this.#normalize();
    this.clearError("quote");
  }

  /** Get quote: checks the whole form, then asks. Returns the first field in error, if any. */
  async submit(): Promise<FieldName | null> {
    this.submitted = true;
    if (this.walletLocked) this.#askedWhileLocked = true;
    this.notice = null;
    const order: FieldName[] = ["srcToken", "dstToken", "amount", "slippage", "recipient", "sender", "owner", "refund"];
    const first = order.find((f) => this.errors[f] !== undefined) ?? null;
    const form = this.form;
    if (first !== null || form === null) return first ?? "srcToken";
    await this.#ask(form, false);
    return this.serverField?.field ?? null;
  }

  /** Asks for the card's quote again now. */
  async refresh(): Promise<void> {
    if (this.cardForm && !this.quoting) await this.#ask(this.cardForm, true);
  }

  /** Called every second while the view is shown: moves the countdown and refreshes a card that is due. */
  tick(): void {
    this.now = this.#clock();
    const showing = this.step === "form" || this.step === "confirm";
    if (!showing || !this.card || this.cardOutdated || this.quoting || this.starting) return;
    if (this.now >= this.refreshDue) void this.refresh();
  }

  async #ask(form: SwapForm, refreshing: boolean): Promise<void> {
    const id = ++this.#latestQuote;
    this.quoting = true;
    this.clearError("quote");
    this.serverField = null;
    try {
      const result = await this.#api.requestQuote(form);
      if (id !== this.#latestQuote) return;
      this.now = this.#clock();
      if (result.type === "quote") {
        this.card = result.card;
        this.lossAccepted = false;
        this.cardForm = form;
        this.cardStale = false;
        this.refreshDue = this.now + REFRESH_SECS * 1000;
        this.question = null;
        this.questionForm = null;
      } else {
        this.#askQuestion(result.question, form);
      }
    } catch (err) {
      if (id !== this.#latestQuote) return;
      this.now = this.#clock();
      const error = this.#fail("quote", err);
      const field = error.kind === "invalid_input" ? fieldOfError(error.details) : null;
      if (field) this.serverField = { field, message: error.message };
      if (refreshing && this.card) {
        // Keep the card in sight, marked as possibly out of date; try again at the next round.
        this.cardStale = true;
        this.refreshDue = this.now + REFRESH_SECS * 1000;
      } else {
        this.card = null;
        this.cardForm = null;
      }
      if (field && this.step === "confirm") this.step = "form";
    } finally {
      if (id === this.#latestQuote) this.quoting = false;
    }
  }

  #askQuestion(question: Question, form: SwapForm): void {
    const route = this.picked.route;
    if (route) {
      const key = routeKey(route);
      const learned = learnFrom(question, form.slippageBps, this.learnedSlippage[key]);
      if (learned) {
        this.learnedSlippage = { ...this.learnedSlippage, [key]: learned };
        saveLearned(this.learnedSlippage);
      }
    }
    this.question = question;
    this.questionForm = form;
    this.card = null;
    this.cardForm = null;
    this.cardStale = false;
    this.step = "form";
    this.answerError = null;
    if (question.field === "amount") this.answer = this.suggestedAmount() ?? this.fields.amount;
    else if (question.field === "slippage") this.answer = question.suggestion ?? "";
    else this.answer = this.fields.owner;
  }

  /** The question's suggested minimum amount in the source token's units ("0.0001"), converted exactly. */
  suggestedAmount(): string | null {
    const q = this.question;
    const src = this.picked.src;
    if (!q || q.field !== "amount" || !q.suggestion || !src || src.decimals === null) return null;
    try {
      return formatUnits(q.suggestion, src.decimals);
    } catch {
      return null;
    }
  }

  /** Puts the answer into the form and asks for the quote again. */
  async retry(): Promise<void> {
    const q = this.question;
    if (!q) return;
    const answer = this.answer.trim();
    let problem: string | null = null;
    if (q.field === "amount") problem = checkAmount(answer, this.picked.src);
    else if (q.field === "slippage") {
      const parsed = parseBps(answer);
      problem = parsed.ok ? null : parsed.message;
    } else problem = answer === "" ? "Enter the EVM address that owns the order." : checkAddress("ethereum", answer);
    this.answerError = problem;
    if (problem) return;
    if (q.field === "amount") this.fields.amount = answer;
    else if (q.field === "slippage") {
      const bps = Number(answer);
      if (SLIPPAGE_PRESETS.includes(bps)) this.choosePreset(bps);
      else this.setCustomSlippage(answer);
    } else this.fields.owner = answer;
    await this.submit();
  }

  /** From the card to the confirm step. */
  proceed(): void {
    if (this.card && !this.cardOutdated && !this.cardStale && !this.quoting) {
      this.step = "confirm";
      this.clearError();
    }
  }

  back(): void {
    if (this.step === "confirm") this.step = "form";
  }

  /** Confirm: creates the order from the quote exactly as received; then it is checked by the app. */
  async confirm(): Promise<void> {
    const card = this.card;
    if (!card || this.starting || this.quoting || this.step !== "confirm") return;
    this.starting = true;
    this.clearError();
    try {
      const check = card.check;
      const accepted = check?.needsConfirmation && this.lossAccepted ? (check.loss?.bps ?? null) : null;
      const order = await this.#api.startOrder(card.raw, accepted);
      if (this.step !== "confirm" || this.card !== card) return;
      this.order = order;
      this.feeAccepted = false;
      this.signed = "";
      this.signedError = null;
      this.savedPath = null;
      this.step = "execute";
    } catch (err) {
      const error = this.#fail("order", err);
      // An order whose creation is unresolved (this one's answer lost, or an earlier one's): the step shows that
      // order, as Orders does, with Continue and Abandon, and the error beside them.
      const localId = unresolvedOrderOf(error);
      if (localId !== null) {
        const unresolved = (await this.#api.listOrders().catch(() => [])).find((o) => o.localId === localId);
        if (unresolved && this.step === "confirm" && this.card === card) {
          this.order = unresolved;
          this.feeAccepted = false;
          this.signed = "";
          this.signedError = null;
          this.savedPath = null;
          this.step = "execute";
        }
      }
    } finally {
      this.starting = false;
    }
  }

  /**
   * Continue on an order whose creation is unresolved: desk-core looks it up among the address's orders, then asks
   * the gateway again; the step then shows what became of it (found and given up, created, or still unresolved).
   */
  async resume(): Promise<void> {
    const order = this.order;
    if (!order || order.localId === undefined || this.resuming) return;
    this.resuming = true;
    this.clearError();
    try {
      const next = await this.#api.resumeOrder(order.localId);
      if (this.order?.localId !== order.localId) return;
      this.order = next;
    } catch (err) {
      this.#fail("order", err);
    } finally {
      this.resuming = false;
    }
  }

  /** The source chain of the order (where the transaction to hand in was sent). */
  get orderChain(): string {
    return this.order?.send.token.chain ?? this.card?.send.token.chain ?? "";
  }

  /** Register: checks what was pasted, then hands it in. */
  async handIn(): Promise<void> {
    const order = this.order;
    if (!order || order.localId === undefined || this.handingIn) return;
    const checked = checkHandIn(order.route, this.orderChain, this.signed);
    if (!checked.ok) {
      this.signedError = checked.message;
      return;
    }
    this.signedError = null;
    this.handingIn = true;
    this.clearError();
    try {
      const next = await this.#api.handIn(order.localId, checked.text);
      if (this.order?.localId !== order.localId) return;
      this.order = next;
    } catch (err) {
      this.#fail("handIn", err);
    } finally {
      this.handingIn = false;
    }
  }

  /**
   * Signs the order's verified PSBT with the app's wallet (desk-core signs; the window never holds a key), then it is
   * checked again, journaled and registered. The high network fee, when it had to be accepted, is passed as accepted.
   */
  async signWithWallet(acceptedFeeSats: string | null): Promise<void> {
    const order = this.order;
    if (!order || order.localId === undefined || this.handingIn) return;
    this.handingIn = true;
    this.clearError();
    try {
      const next = await this.#api.walletStep(order.localId, "pay", acceptedFeeSats);
      if (this.order?.localId !== order.localId) return;
      this.order = next;
    } catch (err) {
      this.#fail("handIn", err);
    } finally {
      this.handingIn = false;
    }
  }

  async savePsbt(): Promise<void> {
    const order = this.order;
    if (!order || order.localId === undefined || this.saving) return;
    this.saving = true;
    this.clearError("psbt");
    try {
      this.savedPath = (await this.#api.savePsbt(order.localId)) ?? "";
    } catch (err) {
      this.#fail("psbt", err);
    } finally {
      this.saving = false;
    }
  }

  /**
   * Opens one of the app's own orders at its signing step (from the Orders view, e.g. after a restart): the
   * journal's view of it is all the execute step needs.
   */
  openOrder(order: OrderView): void {
    this.#clearFlow();
    this.order = order;
    this.signed = "";
    this.signedError = null;
    this.savedPath = null;
    this.step = "execute";
  }

  /**
   * Abandons the order after the person confirmed: journaled, nothing sent to the gateway (its order expires unpaid).
   * Refused by the app, with why, once money may have moved. The order then shows as abandoned here and in Orders.
   */
  async abandon(): Promise<void> {
    const order = this.order;
    if (!order || order.localId === undefined || this.abandoning) return;
    this.abandoning = true;
    this.clearError();
    try {
      const next = await this.#api.abandonOrder(order.localId);
      if (this.order?.localId !== order.localId) return;
      this.order = next;
      this.abandonAsked = false;
    } catch (err) {
      this.#fail("abandon", err);
    } finally {
      this.abandoning = false;
    }
  }

  /** Back to the form for a new quote; the form keeps what was typed. */
  startOver(): void {
    this.#clearFlow();
    this.submitted = false;
  }
}

/**
 * The order an error is about when it concerns an unresolved creation: desk-core names it in the details
 * (`localId`) of a creation whose answer was lost and of a refusal to start another order meanwhile.
 */
export function unresolvedOrderOf(error: DeskError): number | null {
  return orderDetailsOf(error.details)?.localId ?? null;
}

/** The window's one swap. */
export const swap = new SwapState();
