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
//! without a way to pass one (ADR 0008). On X11 the app's own process loads no GL driver at all (GTK and WebKit's UI
//! side draw the page with cairo; Mesa's driver, linked to `libLLVM`, cost it 23 MiB): see
//! [`without_gl_in_this_process`]; `GATEWAY_DESK_APP_GL=1` keeps them.
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
    let gl = without_gl_in_this_process();
    if set.is_empty() {
        format!("WebKit's environment left as the person set it; {gl}")
    } else {
        format!("WebKit processes start with {}; {gl}", set.join(" "))
    }
}

/// The environment variable of libglvnd (the GL dispatch library) naming the EGL drivers a process may load.
const EGL_VENDORS_ENV: &str = "__EGL_VENDOR_LIBRARY_FILENAMES";

/// The environment variable that keeps the GL drivers in the app's own process (`1`), to compare (`cargo xtask bench
/// app` measures both) or if a machine draws the window badly without them.
pub const APP_GL_ENV: &str = "GATEWAY_DESK_APP_GL";

/// Why the app leaves the GL drivers in its own process, if it does, from the environment at its start (`var`).
fn gl_stays(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<&'static str> {
    if var(APP_GL_ENV).is_some_and(|v| v == "1") {
        return Some("GL drivers kept in the app's own process (GATEWAY_DESK_APP_GL=1)");
    }
    if var(EGL_VENDORS_ENV).is_some() || var("GDK_GL").is_some() {
        return Some("GL drivers left as the person set them");
    }
    // A composited page is shown by WebKit's UI side through EGL: with compositing asked for (the person's own
    // `WEBKIT_DISABLE_COMPOSITING_MODE`, left as set), the app's process keeps its driver.
    if var("WEBKIT_DISABLE_COMPOSITING_MODE").is_some_and(|v| v != "1") {
        return Some("GL drivers kept in the app's own process: compositing was asked for");
    }
    let x11_backend = var("GDK_BACKEND").is_some_and(|b| b.to_string_lossy().starts_with("x11"));
    if var("WAYLAND_DISPLAY").is_some() && !x11_backend {
        return Some(
            "GL drivers kept in the app's own process on Wayland (only X11 is measured without them)",
        );
    }
    None
}

/// Keeps the GL drivers out of the app's own process on X11, where nothing of the app draws with GL: the page is
/// drawn by the web process without compositing and shown by GTK with cairo. GTK's X11 back end loads a GL driver at
/// its start to list the GL-capable visuals (`GDK_GL=disable` stops that), and WebKit's UI side opens an EGL display
/// before it starts the web process; on Debian 12 every Mesa driver is one file linked to `libLLVM`, about 23 MiB of
/// the app's memory at rest. libglvnd reads the EGL drivers it may load once per process, at the first EGL call:
/// the app makes that call with no driver listed, then removes the variable, so the web process (started later,
/// with the environment as it is then) loads its driver as before (WebKitGTK aborts the web process without EGL).
/// WebKit's UI side, finding no EGL display, shows the page through the shared-memory path it has for a page drawn
/// without compositing. Not on Wayland, where it was not tried; not when the person set either variable.
fn without_gl_in_this_process() -> String {
    if let Some(why) = gl_stays(|name| std::env::var_os(name)) {
        return why.to_owned();
    }
    // SAFETY: called from `before_threads`, before any other thread exists (see there).
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("GDK_GL", "disable");
        std::env::set_var(EGL_VENDORS_ENV, "/dev/null");
    }
    let read = egl_vendors_read();
    // SAFETY: as above.
    #[allow(unsafe_code)]
    unsafe {
        std::env::remove_var(EGL_VENDORS_ENV)
    };
    match read {
        Ok(()) => {
            "no GL driver in the app's own process (GDK_GL=disable, no EGL driver)".to_owned()
        }
        Err(e) => format!("GDK_GL=disable; the EGL driver stays in the app's own process ({e})"),
    }
}

/// Makes libglvnd's libEGL read its driver list now: `eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`, the client
/// extensions, which need no display. libEGL is the one WebKitGTK links, found by its soname.
#[cfg(target_os = "linux")]
fn egl_vendors_read() -> Result<(), String> {
    use std::ffi::{CStr, c_char, c_int, c_void};
    const EGL_EXTENSIONS: c_int = 0x3055;
    type QueryString = unsafe extern "C" fn(*mut c_void, c_int) -> *const c_char;
    // SAFETY: dlopen of a C library by name and dlsym of a function whose C signature is `QueryString`
    // (`const char *eglQueryString(EGLDisplay, EGLint)`); the handle is kept open for the life of the process (the
    // library is WebKitGTK's own dependency, loaded anyway). The call with EGL_NO_DISPLAY is defined by
    // EGL_EXT_client_extensions and returns a static string or NULL.
    #[allow(unsafe_code)]
    unsafe {
        let handle = libc::dlopen(c"libEGL.so.1".as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL);
        if handle.is_null() {
            return Err("libEGL.so.1 not found".to_owned());
        }
        let symbol = libc::dlsym(handle, c"eglQueryString".as_ptr());
        if symbol.is_null() {
            return Err("libEGL.so.1 has no eglQueryString".to_owned());
        }
        let query: QueryString = std::mem::transmute::<*mut c_void, QueryString>(symbol);
        let extensions = query(std::ptr::null_mut(), EGL_EXTENSIONS);
        if !extensions.is_null() {
            tracing::trace!(extensions = ?CStr::from_ptr(extensions), "EGL client extensions");
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn egl_vendors_read() -> Result<(), String> {
    Err("not Linux".to_owned())
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn gl_leaves_the_apps_process_on_x11_unless_the_person_chose_otherwise() {
        assert_eq!(gl_stays(env(&[("DISPLAY", ":0")])), None);
        assert_eq!(
            gl_stays(env(&[
                ("WAYLAND_DISPLAY", "wayland-0"),
                ("GDK_BACKEND", "x11")
            ])),
            None,
            "GTK on X11 inside a Wayland session"
        );
        for (pairs, why) in [
            (
                &[(APP_GL_ENV, "1")][..],
                "GL drivers kept in the app's own process (GATEWAY_DESK_APP_GL=1)",
            ),
            (
                &[("GDK_GL", "gles")][..],
                "GL drivers left as the person set them",
            ),
            (
                &[(
                    EGL_VENDORS_ENV,
                    "/usr/share/glvnd/egl_vendor.d/50_mesa.json",
                )][..],
                "GL drivers left as the person set them",
            ),
            (
                &[("WAYLAND_DISPLAY", "wayland-0")][..],
                "GL drivers kept in the app's own process on Wayland (only X11 is measured without them)",
            ),
        ] {
            assert_eq!(gl_stays(env(pairs)), Some(why), "{pairs:?}");
        }
        assert_eq!(
            gl_stays(env(&[("WEBKIT_DISABLE_COMPOSITING_MODE", "0")])),
            Some("GL drivers kept in the app's own process: compositing was asked for")
        );
        assert_eq!(
            gl_stays(env(&[("WEBKIT_DISABLE_COMPOSITING_MODE", "1")])),
            None,
            "the app's own setting"
        );
        assert_eq!(
            gl_stays(env(&[(APP_GL_ENV, "0")])),
            None,
            "only 1 keeps them"
        );
    }
}
