{{ config(materialized='table') }}
select city, count(*) as people from {{ ref('people') }} group by city
