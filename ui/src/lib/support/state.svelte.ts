// The Support view's state, kept for the whole window (Svelte 5 runes): the lookup and its result, the support
// bundle being put together (preview, then save exactly what was previewed), the bundle imported and the quote
// reproduced. Nothing here touches the journal. One instance, `support`; tests make their own with a stand-in API.
import type { DeskError } from "../bindings/DeskError";
import type { NetworkKind } from "../bindings/NetworkKind";
import type { BundlePreview } from "../bindings/BundlePreview";
import type { ImportedBundle } from "../bindings/ImportedBundle";
import type { LookupQuery } from "../bindings/LookupQuery";
import type { LookupResult } from "../bindings/LookupResult";
import type { QuoteDiff } from "../bindings/QuoteDiff";
import type { ReproduceSource } from "../bindings/ReproduceSource";
import { deskApi, toDeskError, type DeskApi } from "../ipc";
import type { ApiVersion } from "./model";

/** A preview and what it was made from, so Save writes the bundle that was shown. */
export interface ShownPreview {
  localId: number;
  includeIdentifiers: boolean;
  preview: BundlePreview;
}

/** An imported bundle, with its text (pasted, or read from the file). */
export interface Imported {
  bundle: ImportedBundle;
  text: string;
}

export class SupportState {
  // Lookup. A null choice follows the network in use.
  network = $state<NetworkKind | null>(null);
  customUrl = $state<string | null>(null);
  apiVersion = $state<ApiVersion | null>(null);
  query = $state("");
  looking = $state(false);
  lookupError = $state<DeskError | null>(null);
  /** Which field a local check found empty. */
  lookupField = $state<"query" | "customUrl" | null>(null);
  result = $state<LookupResult | null>(null);

  // Bundle.
  bundleLocalId = $state<number | null>(null);
  includeIdentifiers = $state(false);
  previewing = $state(false);
  preview = $state<ShownPreview | null>(null);
  saving = $state(false);
  savedPath = $state<string | null>(null);
  bundleError = $state<DeskError | null>(null);
  revealError = $state<DeskError | null>(null);

  // Import and reproduce.
  importText = $state("");
  importing = $state(false);
  imported = $state<Imported | null>(null);
  importError = $state<DeskError | null>(null);
  quoteText = $state("");
  reproducing = $state<ReproduceSource["kind"] | null>(null);
  diff = $state<QuoteDiff | null>(null);
  reproduceError = $state<DeskError | null>(null);

  readonly api: DeskApi;
  #lookups = 0;
  #reproductions = 0;

  constructor(api: DeskApi = deskApi) {
    this.api = api;
  }

  /** Shows a local check's failure (an empty field) as the lookup's error. */
  refuseLookup(field: "query" | "customUrl", error: DeskError): void {
    this.lookupField = field;
    this.lookupError = error;
  }

  /** Looks up; only the latest lookup may change the result. */
  async lookup(query: LookupQuery): Promise<void> {
    const id = ++this.#lookups;
    this.looking = true;
    this.lookupError = null;
    this.lookupField = null;
    try {
      const result = await this.api.supportLookup(query);
      if (id !== this.#lookups) return;
      this.result = result;
    } catch (err) {
      if (id !== this.#lookups) return;
      this.result = null;
      this.lookupError = toDeskError(err);
    } finally {
      if (id === this.#lookups) this.looking = false;
    }
  }

  /** Picks the journal order to bundle; a shown preview of another choice is put away. */
  chooseBundleOrder(localId: number | null): void {
    if (localId === this.bundleLocalId) return;
    this.bundleLocalId = localId;
    this.#forgetPreview();
  }

  setIncludeIdentifiers(include: boolean): void {
    if (include === this.includeIdentifiers) return;
    this.includeIdentifiers = include;
    this.#forgetPreview();
  }

  async previewBundle(): Promise<void> {
    const localId = this.bundleLocalId;
    if (localId === null || this.previewing) return;
    const includeIdentifiers = this.includeIdentifiers;
    this.previewing = true;
    this.bundleError = null;
    this.savedPath = null;
    try {
      const preview = await this.api.bundlePreview(localId, { includeIdentifiers });
      // The choice may have changed while the preview was made: show it only if it is still the one asked for.
      if (localId === this.bundleLocalId && includeIdentifiers === this.includeIdentifiers) {
        this.preview = { localId, includeIdentifiers, preview };
      }
    } catch (err) {
      this.preview = null;
      this.bundleError = toDeskError(err);
    } finally {
      this.previewing = false;
    }
  }

  /** Writes the bundle that is previewed. */
  async saveBundle(): Promise<void> {
    const shown = this.preview;
    if (!shown || this.saving) return;
    this.saving = true;
    this.bundleError = null;
    this.revealError = null;
    try {
      this.savedPath = await this.api.saveBundle(shown.localId, { includeIdentifiers: shown.includeIdentifiers });
    } catch (err) {
      this.bundleError = toDeskError(err);
    } finally {
      this.saving = false;
    }
  }

  async reveal(path: string): Promise<void> {
    this.revealError = null;
    try {
      await this.api.revealPath(path);
    } catch (err) {
      this.revealError = toDeskError(err);
    }
  }

  /** Reads the pasted bundle. */
  async importPasted(): Promise<void> {
    const text = this.importText;
    if (text.trim() === "") {
      this.importError = {
        kind: "invalid_input",
        message: "Paste the text of a support bundle first, or open a bundle file.",
      };
      return;
    }
    await this.#import(() => this.api.importBundle(text));
  }

  /** Asks for a bundle file and reads it; nothing changes when the dialog is cancelled. */
  openFile(): Promise<void> {
    return this.#import(() => this.api.openBundleFile());
  }

  /** Requests the imported bundle's quote again. Needs the bundle's text (a pasted bundle). */
  reproduceBundle(): Promise<void> {
    const text = this.imported?.text;
    if (!text) return Promise.resolve();
    return this.#reproduce({ kind: "bundle", text });
  }

  /** Requests the pasted quote again. */
  reproducePasted(): Promise<void> {
    const text = this.quoteText;
    if (text.trim() === "") {
      this.diff = null;
      this.reproduceError = {
        kind: "invalid_input",
        message: "Paste a quote (the JSON the gateway answered get-quote with) first, then choose Reproduce.",
      };
      return Promise.resolve();
    }
    return this.#reproduce({ kind: "quote", text });
  }

  async #import(read: () => Promise<ImportedBundle | null>): Promise<void> {
    if (this.importing) return;
    this.importing = true;
    this.importError = null;
    try {
      const bundle = await read();
      if (bundle === null) return;
      this.imported = { bundle, text: bundle.text };
      this.diff = null;
      this.reproduceError = null;
    } catch (err) {
      this.importError = toDeskError(err);
    } finally {
      this.importing = false;
    }
  }

  async #reproduce(source: ReproduceSource): Promise<void> {
    const id = ++this.#reproductions;
    this.reproducing = source.kind;
    this.reproduceError = null;
    try {
      const diff = await this.api.reproduceQuote(source);
      if (id !== this.#reproductions) return;
      this.diff = diff;
    } catch (err) {
      if (id !== this.#reproductions) return;
      this.diff = null;
      this.reproduceError = toDeskError(err);
    } finally {
      if (id === this.#reproductions) this.reproducing = null;
    }
  }

  #forgetPreview(): void {
    this.preview = null;
    this.savedPath = null;
    this.bundleError = null;
    this.revealError = null;
  }
}

export const support = new SupportState();
