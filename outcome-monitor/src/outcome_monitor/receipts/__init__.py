"""A violation -> the receipt appended to the raw result, and the tools that could recover."""
