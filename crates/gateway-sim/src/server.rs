//! The HTTP service: an axum router over the simulated gateway's state.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use gateway_client::ApiVersion;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tracing::info;

use crate::catalogue::Catalogue;
use crate::quote;
use crate::signing::QuoteSigner;

/// The simulated gateway: its catalogue, its quote-signing key (random, made with the `Sim`) and (as later
/// capabilities land) its orders.
#[derive(Debug, Clone, Default)]
pub struct Sim {
    catalogue: Arc<Catalogue>,
    signer: Arc<QuoteSigner>,
}

impl Sim {
    /// A gateway with the default catalogue.
    pub fn new() -> Self {
        Self::default()
    }

    /// The catalogue this gateway offers.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The key that signs onramp quotes (`signedQuoteData`).
    pub fn signer(&self) -> &QuoteSigner {
        &self.signer
    }

    /// The HTTP interface: the endpoints under `/v1`, `/v2` and `/v3`; anything else is 404 with no body.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/{version}/get-routes", get(get_routes))
            .route("/{version}/get-quote", get(get_quote))
            .fallback(|| async { StatusCode::NOT_FOUND })
            .with_state(self.clone())
    }

    /// Serves on `listener` until `shutdown` resolves.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()> {
        axum::serve(listener, self.router())
            .with_graceful_shutdown(shutdown)
            .await
    }

    /// Binds `addr` (port 0 picks a free port) and serves in a background task.
    pub async fn spawn(self, addr: SocketAddr) -> io::Result<RunningSim> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(self.serve(listener, async {
            let _ = stopped.await;
        }));
        info!(%addr, "gateway-sim listening");
        Ok(RunningSim {
            addr,
            stop: Some(stop),
            task,
        })
    }
}

/// A simulated gateway serving in the background. Dropping it stops the server.
#[derive(Debug)]
pub struct RunningSim {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<io::Result<()>>,
}

impl RunningSim {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its base URL, `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops serving and waits for open connections to finish.
    pub async fn shutdown(mut self) -> io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task)
            .await
            .unwrap_or_else(|e| Err(io::Error::other(e)))
    }
}

impl Drop for RunningSim {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn parse_version(version: &str) -> Option<ApiVersion> {
    match version {
        "v1" => Some(ApiVersion::V1),
        "v2" => Some(ApiVersion::V2),
        "v3" => Some(ApiVersion::V3),
        _ => None,
    }
}

async fn get_routes(State(sim): State<Sim>, Path(version): Path<String>) -> Response {
    match parse_version(&version) {
        Some(version) => Json(sim.catalogue.routes(version)).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

async fn get_quote(
    State(sim): State<Sim>,
    Path(version): Path<String>,
    params: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let Some(version) = parse_version(&version) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let params = match params {
        Ok(Query(params)) => params,
        Err(rejection) => {
            let body = json!({"code": "INVALID_REQUEST", "error": rejection.body_text()});
            return (StatusCode::BAD_REQUEST, Json(body)).into_response();
        }
    };
    match quote::get_quote(&sim.catalogue, &sim.signer, version, &params, unix_now()) {
        Ok(quote) => Json(quote).into_response(),
        Err(err) => (StatusCode::BAD_REQUEST, Json(err.body())).into_response(),
    }
}
