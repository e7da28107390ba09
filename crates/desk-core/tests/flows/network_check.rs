//! A custom gateway URL is checked before it is saved: its get-routes (with the chosen API version) must answer with
//! the interface's route list. Each refusal is a sentence that names the address and what to check, never a page's
//! markup; a saved custom network that no longer answers at start opens the Sandbox with the reason. Everything over
//! loopback: gateway-sim for the good case, a small axum server (or a closed port) for the others.

use std::net::{Ipv4Addr, SocketAddr};

use axum::Router;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use desk_core::api::NetworkChoice;
use desk_core::settings::{self, NetworkKind, Settings};
use desk_core::{AppPaths, ErrorKind};
use gateway_client::ApiVersion;
use gateway_sim::Sim;
use tokio::net::TcpListener;

use crate::common;

use common::mock_keychain;

const ROUTES: &str = r#"[{"srcChain":"bitcoin","srcToken":"BTC","dstChain":"bob","dstToken":"0x0555E30da8f98308EdB960aa94C0Db47230d2B9c"}]"#;

const NGINX: &str = "<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title>\n<style>body { width: 35em; }</style>\
                     </head><body><h1>Welcome to nginx!</h1><p>If you see this page, the nginx web server is \
                     successfully installed.</p></body></html>";

/// A loopback server answering every request with `respond(path)`; its base URL.
async fn serve(respond: fn(&str) -> Response) -> String {
    let app = Router::new().fallback(any(move |uri: Uri| async move { respond(uri.path()) }));
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

fn json(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A loopback port that was free a moment ago: nothing listens there.
fn closed_port() -> String {
    let port = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("http://127.0.0.1:{port}")
}

fn custom(url: &str) -> NetworkChoice {
    NetworkChoice {
        kind: NetworkKind::Custom,
        custom_url: Some(url.to_owned()),
    }
}

/// Chooses `url` on a fresh desk and expects a refusal: the network in use stays and nothing is written.
async fn refused(url: &str) -> desk_core::DeskError {
    mock_keychain();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    let err = desk.select_network(custom(url)).await.unwrap_err();
    let view = desk.settings().await;
    assert_eq!(view.network.kind, NetworkKind::Sandbox, "{url}: kept");
    assert_eq!(view.custom_url, None, "{url}: not remembered");
    assert!(!paths.settings_file().exists(), "{url}: nothing written");
    assert!(
        err.message
            .ends_with("Nothing was saved; the network in use stays."),
        "{}",
        err.message
    );
    assert_eq!(
        err.details_json().as_ref(),
        Some(&serde_json::json!({"field": "customUrl"}))
    );
    for markup in ["<", ">", "DOCTYPE", "35em", "nginx web server"] {
        assert!(!err.message.contains(markup), "{markup}: {}", err.message);
    }
    desk.shutdown().await;
    err
}

#[tokio::test]
async fn a_gateway_that_lists_its_routes_is_saved() {
    mock_keychain();
    let sim = Sim::new()
        .spawn(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .await
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    let view = desk.select_network(custom(&sim.base_url())).await.unwrap();
    assert_eq!(view.network.kind, NetworkKind::Custom);
    assert_eq!(view.custom_url.as_deref(), Some(sim.base_url().as_str()));
    assert_eq!(
        settings::load(&paths.settings_file()).settings.network,
        NetworkKind::Custom
    );
    // Another API version is checked too before it is kept.
    let view = desk.set_api_version(ApiVersion::V1).await.unwrap();
    assert_eq!(view.network.api_version, "v1");
    desk.shutdown().await;
}

#[tokio::test]
async fn nothing_answering_is_refused_in_words() {
    let url = closed_port();
    let err = refused(&url).await;
    assert_eq!(err.kind, ErrorKind::Transport);
    assert!(
        err.message.starts_with(&format!(
            "Nothing answers at {url} (the connection was refused): check the address and that the gateway is \
             running."
        )),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn a_web_page_is_refused_without_its_markup() {
    let url =
        serve(|_| (StatusCode::OK, [(header::CONTENT_TYPE, "text/html")], NGINX).into_response())
            .await;
    let err = refused(&url).await;
    assert!(
        err.message.starts_with(&format!(
            "{url} returned a web page (titled “Welcome to nginx!”), not the gateway. Check the address: it should \
             be the gateway's API base URL"
        )),
        "{}",
        err.message
    );
    // A proxy's error page (a 5xx in HTML) is a web page too.
    let url = serve(|_| {
        (
            StatusCode::BAD_GATEWAY,
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>",
        )
            .into_response()
    })
    .await;
    let err = refused(&url).await;
    assert!(
        err.message.contains("returned a web page") && err.message.contains("not the gateway"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn json_of_another_shape_is_not_a_route_list() {
    let url = serve(|_| json(StatusCode::OK, r#"{"status":"ok","version":"1.2.3"}"#)).await;
    let err = refused(&url).await;
    assert!(
        err.message.starts_with(&format!(
            "{url} answered, but not with the gateway's route list (v4/get-routes gave: "
        )),
        "{}",
        err.message
    );
    assert!(err.message.contains("API version (v4)"), "{}", err.message);
}

#[tokio::test]
async fn http_failures_say_their_status_in_words() {
    let url = serve(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()).await;
    let err = refused(&url).await;
    assert!(
        err.message.starts_with(&format!(
            "{url} failed with HTTP 500 (Internal Server Error) when asked for its routes"
        )),
        "{}",
        err.message
    );
    let url = serve(|_| StatusCode::NOT_FOUND.into_response()).await;
    let err = refused(&url).await;
    assert!(
        err.message.starts_with(&format!(
            "{url} has no v3/get-routes: it answered HTTP 404 (Not Found)."
        )),
        "{}",
        err.message
    );
    let url = serve(|_| (StatusCode::FORBIDDEN, "go away").into_response()).await;
    let err = refused(&url).await;
    assert!(
        err.message.starts_with(&format!(
            "{url} answered HTTP 403 (Forbidden) when asked for its routes"
        )),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn https_to_a_plain_http_server_is_a_tls_failure() {
    let url = serve(|_| json(StatusCode::OK, ROUTES))
        .await
        .replace("http://", "https://");
    let err = refused(&url).await;
    assert!(
        err.message
            .starts_with(&format!("No secure connection could be made to {url} (")),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn another_api_version_is_checked_before_it_is_kept() {
    mock_keychain();
    // A gateway with V3 only.
    let url = serve(|path| {
        if path == "/v3/get-routes" {
            json(StatusCode::OK, ROUTES)
        } else {
            StatusCode::NOT_FOUND.into_response()
        }
    })
    .await;
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    // V4, the default, is not there: V3 is tried and kept for this gateway.
    desk.select_network(custom(&url)).await.unwrap();
    assert_eq!(desk.settings().await.network.api_version, "v3");
    // Chosen on purpose, V4 is refused with the reason.
    let err = desk.set_api_version(ApiVersion::V4).await.unwrap_err();
    assert!(
        err.message
            .starts_with(&format!("{url} has no v4/get-routes")),
        "{}",
        err.message
    );
    let err = desk.set_api_version(ApiVersion::V1).await.unwrap_err();
    assert!(
        err.message
            .starts_with(&format!("{url} has no v1/get-routes")),
        "{}",
        err.message
    );
    assert_eq!(desk.settings().await.network.api_version, "v3", "kept");
    assert_eq!(
        settings::load(&paths.settings_file())
            .settings
            .api_version(NetworkKind::Custom),
        ApiVersion::V3
    );
    desk.shutdown().await;
}

/// The promise of docs/USAGE.md (Networks): a saved network that cannot be used at start opens the Sandbox and says why. The
/// settings file keeps the choice, so the custom network is used again once it answers.
#[tokio::test]
async fn a_saved_custom_network_that_no_longer_answers_opens_the_sandbox_with_the_reason() {
    mock_keychain();
    for (url, reason) in [
        (closed_port(), "Nothing answers at"),
        (
            serve(|_| {
                (StatusCode::OK, [(header::CONTENT_TYPE, "text/html")], NGINX).into_response()
            })
            .await,
            "returned a web page (titled “Welcome to nginx!”), not the gateway",
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        let paths = AppPaths::under(home.path());
        let saved = Settings {
            network: NetworkKind::Custom,
            custom_url: Some(url.clone()),
            ..Settings::default()
        };
        settings::save(&paths.settings_file(), &saved).unwrap();
        let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
        let view = desk.settings().await;
        assert_eq!(view.network.kind, NetworkKind::Sandbox, "{url}");
        assert_eq!(view.notices.len(), 1, "{:?}", view.notices);
        let notice = &view.notices[0];
        assert!(notice.contains(&url) && notice.contains(reason), "{notice}");
        assert!(
            notice.ends_with("The app switched to the Sandbox."),
            "{notice}"
        );
        assert!(!notice.contains('<'), "{notice}");
        assert!(
            !desk.routes().await.unwrap().is_empty(),
            "the Sandbox works"
        );
        let kept = settings::load(&paths.settings_file()).settings;
        assert_eq!(
            (kept.network, kept.custom_url.as_deref()),
            (NetworkKind::Custom, Some(url.as_str())),
            "the file keeps the choice"
        );
        desk.shutdown().await;
    }
}

/// The published service removed V1 and V2 (September 2026): Production and Staging refuse them with why, and keep
/// the version in use. Nothing is asked of the service (choosing Production checks nothing over the network).
#[tokio::test]
async fn production_refuses_the_versions_the_service_removed() {
    mock_keychain();
    let home = tempfile::tempdir().unwrap();
    let paths = AppPaths::under(home.path());
    let desk = desk_sandbox::open_desk(paths.clone()).await.unwrap();
    desk.select_network(NetworkChoice {
        kind: NetworkKind::Production,
        custom_url: None,
    })
    .await
    .unwrap();
    assert_eq!(desk.settings().await.network.api_version, "v4");
    for removed in [ApiVersion::V2, ApiVersion::V1] {
        let err = desk.set_api_version(removed).await.unwrap_err();
        assert!(
            err.message.contains("was removed from the service")
                && err.message.contains("Production speaks V4 or V3"),
            "{}",
            err.message
        );
        assert_eq!(
            err.details_json(),
            Some(serde_json::json!({"field": "apiVersion"}))
        );
    }
    assert_eq!(desk.settings().await.network.api_version, "v4", "kept");
    desk.set_api_version(ApiVersion::V3).await.unwrap();
    assert_eq!(desk.settings().await.network.api_version, "v3");
    desk.shutdown().await;
}
