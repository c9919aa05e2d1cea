"""The reference list: its heading, its end, and its entries cut by the list's own labels and layout."""
