{{ config(materialized='incremental') }}
select n, grp from {{ ref('base_numbers') }}
{% if is_incremental() %} where n > (select max(n) from {{ this }}) {% endif %}
