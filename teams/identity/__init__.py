"""Team identity (issue 14): two colours and a logo, their services, API, pages and the files' storage."""
