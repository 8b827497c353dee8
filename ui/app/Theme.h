#pragma once
// The app's optional dark theme (Fusion + a dark palette). Code views pick their colours from
// the palette, so they follow whichever theme is active.
namespace strata {

void applyDarkTheme();

} // namespace strata
