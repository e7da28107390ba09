//! Gateway Desk: the desktop application's entry point.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    gateway_desk::run();
}
