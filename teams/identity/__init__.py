"""Team identity: two colours and a logo, their services, API, pages and the files' storage."""
