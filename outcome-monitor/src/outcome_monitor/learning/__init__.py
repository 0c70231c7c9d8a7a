"""Clean rows -> rules: errors set aside, views learned, candidates mined per tool, admitted across tools."""
