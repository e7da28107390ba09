// An onramp payment as a BIP21 URI, for the QR code and the "open in wallet" link. What to pay or sign itself comes
// from desk-core (`OrderView.toPay`, `OrderView.toSign`); nothing here reads the gateway's answer.

/** The BIP21 URI of an onramp payment: `bitcoin:<address>?amount=<btc>` (the amount exact, in BTC). */
export function bip21(address: string, amountBtc: string | null): string {
  return amountBtc ? `bitcoin:${address}?amount=${amountBtc}` : `bitcoin:${address}`;
}
