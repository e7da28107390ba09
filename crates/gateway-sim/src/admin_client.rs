//! A client of the Sandbox's admin interface (served to loopback callers with `--admin`, or by the app with
//! `GATEWAY_DESK_SANDBOX_ADMIN=1`): what tests use to move its clock, inject faults and switch a hostile mode on.

use serde_json::{Value, json};

/// The admin interface of the gateway-sim at a base URL (`http://127.0.0.1:<port>`).
#[derive(Debug, Clone)]
pub struct AdminClient {
    base: String,
    http: reqwest::Client,
}

impl AdminClient {
    /// The admin interface of the gateway-sim at `base`.
    pub fn new(base: &str) -> Self {
        Self {
            base: base.trim_end_matches('/').to_owned(),
            http: reqwest::Client::new(),
        }
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<(), reqwest::Error> {
        request.send().await?.error_for_status().map(|_| ())
    }

    /// Moves the simulated clock on by `secs` (`POST /admin/clock/advance`).
    pub async fn advance_clock(&self, secs: u64) -> Result<(), reqwest::Error> {
        let url = format!("{}/admin/clock/advance", self.base);
        self.send(self.http.post(url).json(&json!({ "secs": secs })))
            .await
    }

    /// Adds a fault rule, as [`crate::faults::FaultRule`] reads it (`POST /admin/faults`).
    pub async fn add_fault(&self, rule: &Value) -> Result<(), reqwest::Error> {
        let url = format!("{}/admin/faults", self.base);
        self.send(self.http.post(url).json(rule)).await
    }

    /// Removes every fault rule (`DELETE /admin/faults`).
    pub async fn clear_faults(&self) -> Result<(), reqwest::Error> {
        let url = format!("{}/admin/faults", self.base);
        self.send(self.http.delete(url)).await
    }

    /// Switches a hostile mode on (`Some(name)`, as [`crate::tamper::Tamper`] names it) or off (`PUT /admin/tamper`).
    pub async fn set_tamper(&self, name: Option<&str>) -> Result<(), reqwest::Error> {
        let url = format!("{}/admin/tamper", self.base);
        self.send(self.http.put(url).json(&json!({ "tamper": name })))
            .await
    }
}
