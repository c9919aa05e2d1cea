"""A page's layout around its text: columns, drawn boxes, sidebars, frames, and sheets a publisher
binds around the paper."""
