"""``outcome-monitor learn | check | explain | coverage | proxy``."""
