// written by the dashboard's engineer
