//! WebKitGTK set for what the window is: one local page of forms and lists, not a browser. The web process keeps no
//! page or memory cache for pages it will not see again (the cache model of a document viewer), and the features the
//! page never uses (WebGL, Web Audio, media, the offline application cache, the back-forward page cache) are off.
//! Drawing is done without the GPU: the page is flat 2D, and a GL context costs the web process memory for nothing.
//! JavaScript runs without JavaScriptCore's JIT compilers: the page is forms and lists, which the interpreter runs
//! without a visible difference, and the compilers' code and data cost the web process about 8 MiB; and the page is
//! drawn without accelerated compositing from its first paint (another 6 MiB). Both are environment variables the
//! web process reads when it starts, set by [`before_threads`]; programs the app starts later (the browser an
//! explorer link opens) inherit them, which only a WebKitGTK browser started that way would notice. The network
//! process is given memory pressure settings (it releases its caches past 32 MiB and tries harder past 48 MiB).
//! The web process cannot be given them: they are a construct-only property of the web context, which wry creates
//! without a way to pass one (ADR 0008).
//!
//! `GATEWAY_DESK_WEBKIT_DEFAULTS=1` leaves WebKitGTK's own defaults, to compare (`cargo xtask bench app` measures
//! both) or if a machine draws the window badly this way.

use tauri::{Runtime, WebviewWindow};
use tracing::{info, warn};

/// The environment variable that leaves WebKitGTK's defaults.
pub const DEFAULTS_ENV: &str = "GATEWAY_DESK_WEBKIT_DEFAULTS";

/// What the app sets in its environment for the WebKit processes it starts, unless the person set it already:
/// JavaScriptCore's JIT compilers off (read by every WebKit process at its start), and no accelerated compositing
/// from the first page on (the GPU policy in [`tune`] is set once the view exists, after its page began to load).
const PROCESS_ENV: [(&str, &str); 2] = [
    ("JSC_useJIT", "false"),
    ("WEBKIT_DISABLE_COMPOSITING_MODE", "1"),
];

/// The network process's memory limit in MB, and the fractions of it where it starts releasing memory
/// (conservative) and releases all it can (strict). It is never killed: the page cannot work without it.
const NETWORK_MEMORY_LIMIT_MB: u32 = 64;
const NETWORK_CONSERVATIVE: f64 = 0.5;
const NETWORK_STRICT: f64 = 0.75;

fn defaults_asked() -> bool {
    std::env::var_os(DEFAULTS_ENV).is_some_and(|v| v == "1")
}

/// What must be set before the app starts any thread: the web processes, started later, inherit the environment.
/// Called first thing in `run`; says what it did for the log, which starts after it.
pub fn before_threads() -> String {
    if defaults_asked() {
        return "WebKitGTK left at its defaults".to_owned();
    }
    let mut set = Vec::new();
    for (name, value) in PROCESS_ENV {
        if std::env::var_os(name).is_some() {
            continue;
        }
        // SAFETY: `run` calls this before it starts logging, the async runtime or the window, so no other thread
        // exists to read the environment while it changes.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(name, value)
        };
        set.push(format!("{name}={value}"));
    }
    if set.is_empty() {
        "WebKit's environment left as the person set it".to_owned()
    } else {
        format!("WebKit processes start with {}", set.join(" "))
    }
}

/// Settings of the network process, which must be in place before the window starts it.
pub fn before_window() {
    if defaults_asked() {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        // WebKitGTK's setters want GTK started; the window's event loop starting it again later is a no-op.
        if let Err(e) = gtk::init() {
            warn!(error = %e, "GTK could not start; the network process keeps WebKitGTK's memory settings");
            return;
        }
        let mut settings = webkit2gtk::MemoryPressureSettings::new();
        settings.set_memory_limit(NETWORK_MEMORY_LIMIT_MB);
        settings.set_strict_threshold(NETWORK_STRICT);
        settings.set_conservative_threshold(NETWORK_CONSERVATIVE);
        settings.set_kill_threshold(0.0);
        webkit2gtk::WebsiteDataManager::set_memory_pressure_settings(&mut settings);
        info!(
            limit_mb = NETWORK_MEMORY_LIMIT_MB,
            "the network process releases its caches past half its limit"
        );
    }
}

/// Gives back to the system what the start-up freed: the parsing and set-up done before the first view leave freed
/// memory in the allocator's arenas, which glibc keeps unless asked. Called once, when the first view is painted.
pub fn after_first_paint() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: malloc_trim only returns free pages of the allocator's own arenas to the kernel; it is safe to call
        // from any thread at any time.
        #[allow(unsafe_code)]
        let released = unsafe { libc::malloc_trim(0) } == 1;
        tracing::debug!(
            released,
            "free memory returned to the system after the first paint"
        );
    }
}

/// Applies the settings above to the window's web view.
pub fn tune<R: Runtime>(window: &WebviewWindow<R>) {
    if defaults_asked() {
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
