"""Pages without a usable text layer, read by Tesseract into the lines a text layer gives."""
