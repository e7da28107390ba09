//! WebKitGTK set for what the window is: one local page of forms and lists, not a browser. The web process keeps no
//! page or memory cache for pages it will not see again (the cache model of a document viewer), and the features the
//! page never uses (WebGL, Web Audio, media, the offline application cache, the back-forward page cache) are off.
//! Drawing is done without the GPU: the page is flat 2D, and a GL context costs the web process memory for nothing.
//!
//! `GATEWAY_DESK_WEBKIT_DEFAULTS=1` leaves WebKitGTK's own defaults, to compare (`cargo xtask bench app` measures
//! both) or if a machine draws the window badly this way.

use tauri::{Runtime, WebviewWindow};
use tracing::{info, warn};

/// The environment variable that leaves WebKitGTK's defaults.
pub const DEFAULTS_ENV: &str = "GATEWAY_DESK_WEBKIT_DEFAULTS";

/// Applies the settings above to the window's web view.
pub fn tune<R: Runtime>(window: &WebviewWindow<R>) {
    if std::env::var_os(DEFAULTS_ENV).is_some_and(|v| v == "1") {
        info!("WebKitGTK left at its defaults ({DEFAULTS_ENV}=1)");
        return;
    }
    #[cfg(target_os = "linux")]
    let applied = window.with_webview(|webview| {
        use webkit2gtk::{
            CacheModel, HardwareAccelerationPolicy, SettingsExt, WebContextExt, WebViewExt,
        };
        let view = webview.inner();
        if let Some(context) = view.context() {
            context.set_cache_model(CacheModel::DocumentViewer);
        }
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_enable_page_cache(false);
            settings.set_enable_offline_web_application_cache(false);
            settings.set_enable_webgl(false);
            settings.set_enable_webaudio(false);
            settings.set_enable_media(false);
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
    });
    #[cfg(not(target_os = "linux"))]
    let applied: tauri::Result<()> = Ok(());
    match applied {
        Ok(()) => info!("WebKitGTK set for a document viewer"),
        Err(e) => {
            warn!(error = %e, "the web view's settings could not be changed; WebKitGTK's defaults apply")
        }
    }
}
