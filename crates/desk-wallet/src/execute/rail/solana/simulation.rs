//! Solana's own simulation of the order's transaction (`simulateTransaction` with the wallet's accounts), read as
//! what leaves and enters the wallet ([`assess_solana`]): the same rules as the other families' ([`crate::simulate`]),
//! on the wallet's account and its token accounts before and after the run.

use crate::simulate::{
    AssetMove, Simulation, SimulationStatus, SolAccount, Surprise, bounded, sentence, surprises,
};

/// What a Solana order may take from the wallet.
#[derive(Debug, Clone)]
pub struct SolanaExpectation {
    /// The wallet's account (the fee payer).
    pub owner: [u8; 32],
    /// The SPL mint paid (`None` for SOL).
    pub mint: Option<[u8; 32]>,
    /// The quoted amount.
    pub amount: u64,
    /// The fee of this exact message, lamports.
    pub fee: u64,
    /// The most rent new token accounts may lock, lamports.
    pub rent: u64,
}

fn base58(key: &[u8; 32]) -> String {
    solana_pubkey::Pubkey::new_from_array(*key).to_string()
}

/// Reads a Solana simulation: `watched` are the wallet's account and its token accounts the transaction writes, each
/// as before and after the run. Anything beyond the quote's input, the fee and the rent leaving them (another mint,
/// more of the same, a delegate or a new owner on a token account, a token account closed) refuses the order.
pub fn assess_solana(
    expect: &SolanaExpectation,
    watched: &[([u8; 32], Option<SolAccount>, Option<SolAccount>)],
    err: Option<&str>,
) -> Result<Simulation, Surprise> {
    use super::node::{sol_text, spl_text};
    if let Some(reason) = err {
        return Err(Surprise::Reverts {
            what: "order's transaction",
            reason: reason.to_owned(),
        });
    }
    let spl = |mint: &[u8; 32], amount: u64| {
        spl_text(&solana_pubkey::Pubkey::new_from_array(*mint), amount)
    };
    let mut moves = Vec::new();
    let mut wrong = Vec::new();
    let mut pulled: u64 = 0;
    for (address, before, after) in watched {
        if *address == expect.owner {
            let (before, after) = (
                before.as_ref().map_or(0, |a| a.lamports),
                after.as_ref().map_or(0, |a| a.lamports),
            );
            let spent = before.saturating_sub(after);
            let sent = spent.saturating_sub(expect.fee);
            let allowed = expect.rent.saturating_add(if expect.mint.is_none() {
                expect.amount
            } else {
                0
            });
            if sent > 0 {
                moves.push(AssetMove {
                    leaves: true,
                    text: format!("−{}", sol_text(sent)),
                    token: "native".into(),
                    amount: sent.to_string(),
                    counterparty: "the transaction's accounts".into(),
                });
            }
            if sent > allowed {
                wrong.push(format!(
                    "{} leaves the wallet besides the fee, more than the {} the quote and the rent allow",
                    sol_text(sent),
                    sol_text(allowed)
                ));
            }
            continue;
        }
        let Some(pre) = before.as_ref().and_then(SolAccount::token) else {
            continue;
        };
        if pre.owner != expect.owner {
            continue;
        }
        let Some(post) = after.as_ref().and_then(SolAccount::token) else {
            wrong.push(format!(
                "the wallet's token account {} (holding {}) is closed",
                base58(address),
                spl(&pre.mint, pre.amount)
            ));
            continue;
        };
        if post.owner != expect.owner {
            wrong.push(format!(
                "the wallet's token account {} is handed to {}",
                base58(address),
                base58(&post.owner)
            ));
        }
        if let Some(delegate) = post.delegate
            && post.delegated > 0
            && (pre.delegate != post.delegate || post.delegated > pre.delegated)
        {
            wrong.push(format!(
                "the wallet lets {} move {} of its token account {}, a stranger",
                base58(&delegate),
                spl(&post.mint, post.delegated),
                base58(address)
            ));
        }
        let out = pre.amount.saturating_sub(post.amount);
        let inn = post.amount.saturating_sub(pre.amount);
        if out > 0 {
            moves.push(AssetMove {
                leaves: true,
                text: format!("−{}", spl(&pre.mint, out)),
                token: base58(&pre.mint),
                amount: out.to_string(),
                counterparty: "the gateway's program".into(),
            });
            if Some(pre.mint) == expect.mint {
                pulled = pulled.saturating_add(out);
            } else {
                wrong.push(format!(
                    "{} leaves the wallet, but the quote takes only {}",
                    spl(&pre.mint, out),
                    match expect.mint {
                        Some(mint) => spl(&mint, expect.amount),
                        None => sol_text(expect.amount),
                    }
                ));
            }
        }
        if inn > 0 {
            moves.push(AssetMove {
                leaves: false,
                text: format!("+{}", spl(&pre.mint, inn)),
                token: base58(&pre.mint),
                amount: inn.to_string(),
                counterparty: "the transaction's accounts".into(),
            });
        }
    }
    if let Some(mint) = expect.mint
        && pulled > expect.amount
    {
        wrong.push(format!(
            "{} leaves the wallet, more than the quote's {}",
            spl(&mint, pulled),
            spl(&mint, expect.amount)
        ));
    }
    if !wrong.is_empty() {
        return Err(surprises(wrong));
    }
    let more = bounded(&mut moves);
    Ok(Simulation {
        status: SimulationStatus::Simulated,
        sentence: sentence(&moves, more, &sol_text(expect.fee), false),
        moves,
        source: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
    const USDC_MINT: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

    fn key(text: &str) -> [u8; 32] {
        bs58::decode(text).into_vec().unwrap().try_into().unwrap()
    }

    fn wallet() -> [u8; 32] {
        [7; 32]
    }

    fn system(lamports: u64) -> Option<SolAccount> {
        Some(SolAccount {
            lamports,
            owner: "11111111111111111111111111111111".into(),
            data: vec![],
        })
    }

    fn token_account(
        mint: [u8; 32],
        owner: [u8; 32],
        amount: u64,
        delegate: Option<([u8; 32], u64)>,
    ) -> Option<SolAccount> {
        let mut data = vec![0u8; 165];
        data[..32].copy_from_slice(&mint);
        data[32..64].copy_from_slice(&owner);
        data[64..72].copy_from_slice(&amount.to_le_bytes());
        if let Some((who, much)) = delegate {
            data[72..76].copy_from_slice(&1u32.to_le_bytes());
            data[76..108].copy_from_slice(&who);
            data[121..129].copy_from_slice(&much.to_le_bytes());
        }
        data[108] = 1;
        Some(SolAccount {
            lamports: 2_039_280,
            owner: TOKEN_PROGRAM.into(),
            data,
        })
    }

    fn usdc_order() -> SolanaExpectation {
        SolanaExpectation {
            owner: wallet(),
            mint: Some(key(USDC_MINT)),
            amount: 25_000_000,
            fee: 5_000,
            rent: 0,
        }
    }

    const ATA: [u8; 32] = [9; 32];

    fn honest_solana() -> Vec<([u8; 32], Option<SolAccount>, Option<SolAccount>)> {
        vec![
            (
                wallet(),
                system(10_000_000_000),
                system(10_000_000_000 - 5_000),
            ),
            (
                ATA,
                token_account(key(USDC_MINT), wallet(), 100_000_000, None),
                token_account(key(USDC_MINT), wallet(), 75_000_000, None),
            ),
        ]
    }

    fn solana_refused(rows: &[([u8; 32], Option<SolAccount>, Option<SolAccount>)]) -> String {
        match assess_solana(&usdc_order(), rows, None) {
            Err(Surprise::Leaves(why)) => why,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn an_honest_solana_order_is_said_in_the_persons_units() {
        let simulation = assess_solana(&usdc_order(), &honest_solana(), None).unwrap();
        assert_eq!(
            simulation.sentence,
            "−25 USDC, network fee 0.000005 SOL; nothing else leaves the wallet."
        );
    }

    #[test]
    fn sol_beyond_the_fee_and_rent_is_refused() {
        let mut rows = honest_solana();
        rows[0].2 = system(10_000_000_000 - 5_000 - 1_000_000_000);
        let why = solana_refused(&rows);
        assert!(
            why.contains("1 SOL leaves the wallet besides the fee"),
            "{why}"
        );
    }

    #[test]
    fn more_usdc_another_mint_a_delegate_a_new_owner_or_a_closed_account_is_refused() {
        let other_mint = [3u8; 32];
        let stranger = [4u8; 32];
        let mut more = honest_solana();
        more[1].2 = token_account(key(USDC_MINT), wallet(), 74_000_000, None);
        assert!(solana_refused(&more).contains("more than the quote's 25 USDC"));

        let mut other = honest_solana();
        other.push((
            [5; 32],
            token_account(other_mint, wallet(), 10, None),
            token_account(other_mint, wallet(), 0, None),
        ));
        assert!(solana_refused(&other).contains("but the quote takes only 25 USDC"));

        let mut delegated = honest_solana();
        delegated[1].2 = token_account(
            key(USDC_MINT),
            wallet(),
            75_000_000,
            Some((stranger, u64::MAX)),
        );
        assert!(solana_refused(&delegated).contains("a stranger"));

        let mut handed = honest_solana();
        handed[1].2 = token_account(key(USDC_MINT), stranger, 75_000_000, None);
        assert!(solana_refused(&handed).contains("is handed to"));

        let mut closed = honest_solana();
        closed[1].2 = None;
        assert!(solana_refused(&closed).contains("is closed"));
    }

    #[test]
    fn a_failed_solana_run_refuses() {
        assert!(matches!(
            assess_solana(&usdc_order(), &honest_solana(), Some("InstructionError")),
            Err(Surprise::Reverts { .. })
        ));
    }

    #[test]
    fn token_accounts_of_others_are_not_the_wallets() {
        // The gateway's vault receiving the amount is not the wallet's: it is not counted as leaving or entering.
        let mut rows = honest_solana();
        rows.push((
            [6; 32],
            token_account(key(USDC_MINT), [8; 32], 0, None),
            token_account(key(USDC_MINT), [8; 32], 25_000_000, None),
        ));
        let simulation = assess_solana(&usdc_order(), &rows, None).unwrap();
        assert_eq!(simulation.moves.len(), 1);
    }
}
